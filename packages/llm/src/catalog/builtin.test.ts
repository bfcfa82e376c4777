import { describe, expect, it } from "vitest";
import { builtinModel, latestBuiltinModel } from "./builtin.js";

describe("latestBuiltinModel", () => {
  it("names the newest built-in model of a family, as a whole word of the id", () => {
    expect(latestBuiltinModel("sonnet")).toBe("claude-sonnet-5-5");
    expect(latestBuiltinModel("Opus")).toBe("claude-opus-5-5");
    expect(latestBuiltinModel("haiku")).toBe("claude-haiku-4-5");
    expect(latestBuiltinModel("gpt")).toBe("gpt-5");
    expect(latestBuiltinModel("son")).toBeUndefined();
    expect(latestBuiltinModel("llama")).toBeUndefined();
  });

  it("names a model the built-in table also prices", () => {
    for (const family of ["opus", "sonnet", "haiku"])
      expect(builtinModel(latestBuiltinModel(family) ?? "")?.source).toBe("builtin");
  });
});
