// Bundles the CLI into dist/main.js (+ lazily loaded chunks in dist/chunks/) with esbuild.
// Why: Node 20's ESM loader pays per file, and the engine's import graph is some hundreds of
// files; one bundle reaches the first model request in about half the time (README, "Start-up").
// Packages that find files next to their own code (wasm grammars, the rg binary, pdf.js)
// stay external and are dependencies of @z-engine/cli so that they resolve from dist/.
import { chmod, cp, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { stringWidthFastPath } from "./string-width-fast-path.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const outdir = join(root, "dist");

await rm(join(outdir, "chunks"), { recursive: true, force: true });
await build({
  entryPoints: { main: join(root, "src", "cli.ts") },
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  outdir,
  chunkNames: "chunks/[name]-[hash]",
  external: [
    "web-tree-sitter",
    "tree-sitter-bash",
    // The repo map's grammars (context reads their wasm and queries/tags.scm).
    "tree-sitter-typescript",
    "tree-sitter-javascript",
    "tree-sitter-python",
    "tree-sitter-rust",
    "tree-sitter-go",
    "@vscode/ripgrep",
    "unpdf",
    "onnxruntime-node",
    // ink loads React's devtools only when DEV=true; they are not a dependency.
    "react-devtools-core",
  ],
  // Bundled CommonJS code calls require() for Node's own modules.
  banner: {
    js: 'import { createRequire as __zengRequire } from "node:module"; const require = __zengRequire(import.meta.url);',
  },
  // Some code tells errors apart by class name (llm classifies SDK errors that way), so
  // names survive bundling; no minifying (it gained nothing measurable; stacks stay readable).
  keepNames: true,
  // React (and its reconciler) in their production builds: the development ones double the
  // interactive screen's first render and every re-render (only ink's code reads NODE_ENV).
  define: { "process.env.NODE_ENV": '"production"' },
  // ink's text measuring without compiling the RGI emoji set for plain text (see the file).
  plugins: [stringWidthFastPath],
  legalComments: "none",
  logLevel: "warning",
});
// The repo map's worker thread (context's repo-map-worker.js) is its own small bundle next to
// main.js, where context looks for it (`./repo-map-worker.js`, or `../` from a chunk); built
// apart so that main.js and its chunks stay as they are. Context is the engine's dependency.
const engineDist = dirname(fileURLToPath(import.meta.resolve("@z-engine/engine")));
const contextDist = join(engineDist, "..", "node_modules", "@z-engine", "context", "dist");
await build({
  entryPoints: { "repo-map-worker": join(contextDist, "repo-map", "repo-map-worker.js") },
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  outdir,
  external: [
    "web-tree-sitter",
    "tree-sitter-typescript",
    "tree-sitter-javascript",
    "tree-sitter-python",
    "tree-sitter-rust",
    "tree-sitter-go",
  ],
  keepNames: true,
  legalComments: "none",
  logLevel: "warning",
});
await chmod(join(outdir, "main.js"), 0o755);
// The engine's decision classifiers (.onnx), next to the bundle: the engine looks for them in
// dist/models/ when it runs bundled (onnxruntime-node, external, resolves from dist/).
const engineModels = join(
  dirname(fileURLToPath(import.meta.resolve("@z-engine/engine"))),
  "..",
  "models",
);
await rm(join(outdir, "models"), { recursive: true, force: true });
await cp(engineModels, join(outdir, "models"), {
  recursive: true,
  filter: (f) => !f.endsWith(".check.json"),
});
