import { describe, expect, it } from "vitest";
import { parseModelsDev } from "./model-info.js";

describe("models.dev modalities", () => {
  it("say whether a model reads images, and leave it unknown when absent", () => {
    const { models } = parseModelsDev({
      p: {
        models: {
          seeing: { modalities: { input: ["text", "image"], output: ["text"] } },
          blind: { modalities: { input: ["text"], output: ["text"] } },
          silent: { limit: { context: 1000 } },
        },
      },
    });
    expect(models.get("seeing")?.vision).toBe(true);
    expect(models.get("blind")?.vision).toBe(false);
    expect(models.get("silent")?.vision).toBeUndefined();
  });
});
