// What the two apps' esbuild bundles (apps/cli, apps/web) share when they bundle the engine for
// Node: the packages left external, the require() banner, zod without its locales, the repo
// map's worker bundle and the decision classifiers next to the bundle.
import { cp, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Packages that find files next to their own code (wasm grammars and the repo map's
 * queries/tags.scm, the rg binary, pdf.js, onnxruntime's native addon): they stay external
 * and are dependencies of each app, so they resolve from its dist/.
 */
export const ENGINE_EXTERNALS = [
  "web-tree-sitter",
  "tree-sitter-bash",
  "tree-sitter-typescript",
  "tree-sitter-javascript",
  "tree-sitter-python",
  "tree-sitter-rust",
  "tree-sitter-go",
  "@vscode/ripgrep",
  "unpdf",
  "onnxruntime-node",
];

/** Bundled CommonJS code calls require() for Node's own modules: an ES module bundle needs one. */
export const REQUIRE_BANNER =
  'import { createRequire as __zengRequire } from "node:module"; const require = __zengRequire(import.meta.url);';

/**
 * zod's classic API and core re-export all of its ~50 locales (about 400 KB, half of zod) and
 * nothing here uses any but English, which zod's core installs itself; the namespace is
 * replaced by English alone.
 * @type {import("esbuild").Plugin}
 */
export const zodEnglishOnly = {
  name: "zod-english-only",
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[/\\]zod[/\\]v4[/\\](classic|core)$/.test(args.resolveDir)
        ? { path: join(args.resolveDir, "..", "locales", "en.js"), namespace: "zod-locales" }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: "zod-locales" }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(args.path)};`,
      resolveDir: dirname(args.path),
    }));
  },
};

/**
 * Copies the engine's decision classifiers (.onnx) to `<outdir>/models/`: bundled, the engine
 * looks for them there (beside `dist/main.js` and `dist/chunks/`). `engineUrl` is
 * `import.meta.resolve("@z-engine/engine")` as the app's own script resolves it.
 */
export async function copyEngineModels(engineUrl, outdir) {
  const models = join(dirname(fileURLToPath(engineUrl)), "..", "models");
  await rm(join(outdir, "models"), { recursive: true, force: true });
  await cp(models, join(outdir, "models"), {
    recursive: true,
    filter: (f) => !f.endsWith(".check.json"),
  });
}

/**
 * Bundles the repo map's worker thread (context's `repo-map-worker.js`) on its own as
 * `<outdir>/repo-map-worker.js`, beside `main.js`, where context looks for it
 * (`./repo-map-worker.js`, or `../` from a chunk). `build` is the app's esbuild; `engineUrl`
 * as for {@link copyEngineModels} (context is the engine's dependency).
 */
export async function bundleRepoMapWorker(build, engineUrl, outdir) {
  const engineDist = dirname(fileURLToPath(engineUrl));
  const contextDist = join(engineDist, "..", "node_modules", "@z-engine", "context", "dist");
  await build({
    entryPoints: { "repo-map-worker": join(contextDist, "repo-map", "repo-map-worker.js") },
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    outdir,
    external: ENGINE_EXTERNALS,
    keepNames: true,
    legalComments: "none",
    logLevel: "warning",
  });
}
