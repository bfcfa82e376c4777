import { describe, expect, it } from "vitest";
import { expandPastes, isLargePaste, normalizePaste, placeholderFor } from "./paste.js";

describe("pastes", () => {
  it("collapses more than 5 lines or 800 characters, numbering placeholders of one size", () => {
    expect(isLargePaste("a\nb\nc\nd\ne")).toBe(false);
    expect(isLargePaste("a\nb\nc\nd\ne\nf")).toBe(true);
    expect(isLargePaste("x".repeat(801))).toBe(true);
    const first = placeholderFor("a\nb\nc\nd\ne\nf", {});
    expect(first).toBe("[pasted 6 lines]");
    expect(placeholderFor("1\n2\n3\n4\n5\n6", { [first]: "a" })).toBe("[pasted 6 lines #2]");
    expect(placeholderFor("x".repeat(900), {})).toBe("[pasted 1 line]");
  });

  it("expands every placeholder left in the text; an edited one stays as typed", () => {
    const pastes = { "[pasted 6 lines]": "A\nB", "[pasted 6 lines #2]": "C" };
    expect(expandPastes("see [pasted 6 lines] and [pasted 6 lines #2]", pastes)).toBe(
      "see A\nB and C",
    );
    expect(expandPastes("see [pasted 6 line", pastes)).toBe("see [pasted 6 line");
    expect(normalizePaste("a\r\nb\rc")).toBe("a\nb\nc");
  });
});
