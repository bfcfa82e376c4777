import { writeFile } from "node:fs/promises";
import { DEFAULT_MODEL_INFO } from "@z-engine/engine";
import type { Usage } from "@z-engine/protocol";
import { reply } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { type Harness, harness } from "../harness.js";

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

// A 1x1 PNG.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

const free: Usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, costUsd: 0 };

async function readImage(options: { userSettings?: string; catalogVision?: boolean }) {
  h = await harness({
    files: { "README.md": "# x\n" },
    ...(options.userSettings ? { userSettings: options.userSettings } : {}),
    overrides: { mode: "bypass" },
    script: [reply.toolCall("Read", { file_path: "pixel.png" }), reply.text("ok")],
    ...(options.catalogVision === undefined
      ? {}
      : {
          engine: {
            catalog: {
              info: () => ({ ...DEFAULT_MODEL_INFO, vision: options.catalogVision as boolean }),
              price: () => free,
            },
          },
        }),
  });
  await writeFile(h.repo.path("pixel.png"), PNG);
  await h.session.run("look at the picture");
  return JSON.stringify(h.model.requests[1]?.messages.at(-1));
}

describe("the model's vision", () => {
  it("comes from [model] vision: a text-only model gets no image", async () => {
    const sent = await readImage({ userSettings: "[model]\nvision = false\n" });
    expect(sent).not.toContain('"image"');
    expect(sent).toContain("cannot read images");
  }, 30_000);

  it("comes from the catalog when the settings leave it unset", async () => {
    const textOnly = await readImage({ catalogVision: false });
    expect(textOnly).not.toContain('"image"');
    await h?.dispose();
    h = undefined;
    const vision = await readImage({ catalogVision: true });
    expect(vision).toContain('"image"');
  }, 30_000);
});
