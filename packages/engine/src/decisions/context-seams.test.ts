import { describe, expect, it } from "vitest";
import { applyClearAdvice } from "./context-seams.js";

describe("applyClearAdvice (the context-pressure seam's rule)", () => {
  const order = ["a", "b", "c", "d", "e"];

  it("clears the plan plus what advice adds, in history order", () => {
    expect(applyClearAdvice(order, ["c"], [{ keep: [], add: ["e", "a"] }])).toEqual([
      "a",
      "c",
      "e",
    ]);
  });

  it("lets keeping win: a use's keep beats the plan and another use's add", () => {
    const advice = [
      { keep: [], add: ["b", "d"] },
      { keep: ["b", "c"], add: [] },
    ];
    expect(applyClearAdvice(order, ["a", "c"], advice)).toEqual(["a", "d"]);
  });

  it("carries out the plan as it is with no advice", () => {
    expect(applyClearAdvice(order, ["b", "a"], [])).toEqual(["a", "b"]);
  });
});
