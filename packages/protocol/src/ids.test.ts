import { describe, expect, it } from "vitest";
import { checkId, newMessageId, newSessionId, SessionId } from "./ids.js";

describe("ids", () => {
  it("are prefixed, unique and sort in creation order", () => {
    const ids = Array.from({ length: 5000 }, () => newSessionId());
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
    expect(ids[0]).toMatch(/^ses_[0-9a-z]{24}$/);
    expect(newMessageId()).toMatch(/^msg_/);
  });

  it("parse as branded strings and reject empty ones", () => {
    expect(SessionId.safeParse("ses_x").success).toBe(true);
    expect(SessionId.safeParse("").success).toBe(false);
    expect(SessionId.safeParse(3).success).toBe(false);
  });

  it("name checks by ecosystem, name and folder", () => {
    expect(checkId("npm", "test")).toBe("npm:test");
    expect(checkId("npm", "test", ".")).toBe("npm:test");
    expect(checkId("cargo", "test", "crates/core")).toBe("cargo:test@crates/core");
  });
});
