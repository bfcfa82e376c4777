import { describe, expect, it } from "vitest";
import { resolveAgentModel } from "./agent-model.js";

const session = { main: "claude-sonnet-5-5", fast: "claude-haiku-4-5" };

describe("resolveAgentModel", () => {
  it("inherits the main model for inherit, main and an empty name; fast is the fast role", () => {
    for (const name of ["inherit", "main", "", " Inherit "])
      expect(resolveAgentModel(name, session)).toBe("claude-sonnet-5-5");
    expect(resolveAgentModel("fast", session)).toBe("claude-haiku-4-5");
  });

  it("resolves a family alias to the session's model of that family, else the catalog's id", () => {
    expect(resolveAgentModel("sonnet", session)).toBe("claude-sonnet-5-5");
    expect(resolveAgentModel("haiku", session)).toBe("claude-haiku-4-5");
    expect(resolveAgentModel("opus", session)).toBe("claude-opus-5-5");
    expect(resolveAgentModel("Opus", { main: "claude-3-5-haiku-latest", fast: "x" })).toBe(
      "claude-opus-5-5",
    );
    // The provider's prefix stays (OpenRouter, Bedrock).
    expect(
      resolveAgentModel("haiku", {
        main: "anthropic/claude-opus-4-5",
        fast: "anthropic/claude-opus-4-5",
      }),
    ).toBe("anthropic/claude-haiku-4-5");
    expect(
      resolveAgentModel("sonnet", {
        main: "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
        fast: "",
      }),
    ).toBe("us.anthropic.claude-sonnet-4-5-20250929-v1:0");
  });

  it("an alias on another provider's models inherits; an id is used as written", () => {
    expect(resolveAgentModel("opus", { main: "gpt-5", fast: "gpt-5-mini" })).toBe("gpt-5");
    expect(resolveAgentModel("gpt-5-mini", session)).toBe("gpt-5-mini");
    expect(resolveAgentModel("claude-opus-4-1", session)).toBe("claude-opus-4-1");
  });
});

describe("resolveAgentModel's review role", () => {
  it("is the review model when the settings name one, else the main model", () => {
    expect(resolveAgentModel("review", { ...session, review: "claude-opus-5-5" })).toBe(
      "claude-opus-5-5",
    );
    expect(resolveAgentModel("Review", session)).toBe("claude-sonnet-5-5");
  });
});
