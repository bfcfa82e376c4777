import { describe, expect, it } from "vitest";
import { decisionFeatureMode } from "./decision-modes.js";

describe("decisionFeatureMode", () => {
  it("reads [experimental] decisions_<name>: on, shadow, off, booleans and a missing key", () => {
    const experimental = {
      decisions_route: "on",
      decisions_review_call: "shadow",
      decisions_turn_tone: "off",
      decisions_attention: true,
      decisions_relevance: false,
    } as const;
    const mode = (name: string) => decisionFeatureMode({ experimental }, name);
    expect(mode("route")).toBe("on");
    expect(mode("review_call")).toBe("shadow");
    expect(mode("turn_tone")).toBe("off");
    expect(mode("attention")).toBe("on");
    expect(mode("relevance")).toBe("off");
    expect(mode("screen_request")).toBe("off");
  });
});
