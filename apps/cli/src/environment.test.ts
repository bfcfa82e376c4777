import { describe, expect, it } from "vitest";
import { takeEnvironment } from "./environment.js";

describe("takeEnvironment", () => {
  it("hands every variable to the engine and removes the keys from the process", () => {
    const source: Record<string, string | undefined> = {
      PATH: "/usr/bin",
      ZENGINE_API_KEY: "sk-1",
      ANTHROPIC_API_KEY: "sk-2",
      GITHUB_TOKEN: "ghp",
      ZENGINE_MODEL: "m",
    };
    const env = takeEnvironment(source);
    expect(env).toEqual({
      PATH: "/usr/bin",
      ZENGINE_API_KEY: "sk-1",
      ANTHROPIC_API_KEY: "sk-2",
      GITHUB_TOKEN: "ghp",
      ZENGINE_MODEL: "m",
    });
    expect(source).toEqual({ PATH: "/usr/bin", ZENGINE_MODEL: "m" });
  });
});
