import { describe, expect, it } from "vitest";
import { cleanServerText, MAX_DESCRIPTION_LENGTH } from "./clean-text.js";

describe("cleanServerText", () => {
  it("removes NUL, other controls, bidi overrides and isolates and zero-width characters", () => {
    const text = "Looks\u0000 safe\u202e.exe\u2066 here\u200b.\r\nNext\tline\u0007";
    expect(cleanServerText(text)).toBe("Looks safe.exe here.\nNext\tline");
  });

  it("cuts long text to the limit and says how much was cut", () => {
    const out = cleanServerText("y".repeat(10_000));
    expect(out.length).toBeLessThanOrEqual(MAX_DESCRIPTION_LENGTH);
    expect(out).toMatch(/… \[7992 more characters cut\]$/);
    expect(cleanServerText("short", 10)).toBe("short");
  });
});
