import { existsSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// The bundled server (dist/main.js, what `zeng-web` runs) carries what the engine finds next to
// its own code: the repo map's worker, the decision classifiers in dist/models/, and
// onnxruntime-node (external)
// resolvable from dist/, so native decision uses run there as in the CLI's bundle.
const DIST = join(import.meta.dirname, "..", "dist");

describe("the server bundle", () => {
  it("ships the decision classifiers beside dist/main.js", async () => {
    expect((await readdir(join(DIST, "models"))).sort()).toEqual([
      "credential.onnx",
      "risky-call.onnx",
    ]);
  });

  it("ships the repo map's worker thread as its own bundle beside dist/main.js", () => {
    expect(existsSync(join(DIST, "repo-map-worker.js"))).toBe(true);
  });

  it("resolves its external packages, onnxruntime-node included, from dist/", () => {
    const from = createRequire(join(DIST, "main.js"));
    for (const name of ["onnxruntime-node", "web-tree-sitter", "@vscode/ripgrep"])
      expect(() => from.resolve(name), name).not.toThrow();
  });
});
