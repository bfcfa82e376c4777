// Bundles the CLI with esbuild into dist/main.js (+ lazily loaded chunks in dist/chunks/).
// Why: Node 20's ESM loader pays per file, and the engine's import graph is some hundreds of
// files; one bundle reaches the first model request in about half the time (README, "Start-up").
// `zeng -p` (headless) is one CommonJS bundle, dist/chunks/headless-<sha>.cjs, that
// src/code-cache.ts runs through vm.Script with a V8 code cache in the data folder (Node 20
// has no compile cache for ES modules); its name carries its content's hash, so a cache
// never outlives its code. The other commands (interactive, demo, trust, mcp list) stay ES
// module chunks. Packages that find files next to their own code (wasm grammars, the rg
// binary, pdf.js) stay external and are dependencies of @z-engine/cli so that they resolve
// from dist/.
import { createHash } from "node:crypto";
import { chmod, mkdir, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import {
  bundleRepoMapWorker,
  copyEngineModels,
  ENGINE_EXTERNALS,
  REQUIRE_BANNER,
  zodEnglishOnly,
} from "../../../scripts/esbuild-node-app.mjs";
import { deferBuiltins } from "./defer-builtins.mjs";
import { dropRedundantNames } from "./drop-redundant-names.mjs";
import { stringWidthFastPath } from "./string-width-fast-path.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const outdir = join(root, "dist");

const external = [
  ...ENGINE_EXTERNALS,
  // ink loads React's devtools only when DEV=true; they are not a dependency.
  "react-devtools-core",
  // The OpenTelemetry SDKs and OTLP exporters load only when the OTEL_* variables ask for export.
  "@opentelemetry/sdk-trace-base",
  "@opentelemetry/exporter-trace-otlp-http",
  "@opentelemetry/sdk-metrics",
  "@opentelemetry/exporter-metrics-otlp-http",
];

const common = {
  bundle: true,
  platform: "node",
  target: "node20",
  external,
  // ink's text measuring without compiling the RGI emoji set for plain text (see the file).
  plugins: [zodEnglishOnly, stringWidthFastPath],
  // Some code tells errors apart by class name (llm classifies SDK errors that way), so
  // names survive bundling; no minifying (it gained nothing measurable; stacks stay readable).
  keepNames: true,
  // React (and its reconciler) in their production builds: the development ones double the
  // interactive screen's first render and every re-render (only ink's code reads NODE_ENV).
  define: { "process.env.NODE_ENV": '"production"' },
  legalComments: "none",
  logLevel: "warning",
};

/**
 * esbuild escapes non-ASCII characters in strings but leaves them in comments and regular
 * expression literals; `\uXXXX` means the same there, and an ASCII-only file can be read as
 * latin1 (src/code-cache.ts), which is faster than decoding utf8.
 */
function asciiOnly(code) {
  return code.replace(
    /[\u0080-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/**
 * Externals the headless bundle loads through their CommonJS build (`require`) rather than
 * `import()`: their first `import()` loaded Node's ES module loader (eight modules, 2-3 ms,
 * 6-8 ms after `zeng -p` changed V8's flags, src/memory-tuning.ts), which nothing else in a
 * headless run needs. web-tree-sitter's two builds export the same names.
 */
const REQUIRED_EXTERNALS = ["web-tree-sitter"];

/**
 * The headless CommonJS bundle. `import.meta.url` is the bundle file's URL (it sits in
 * dist/chunks/ like the ES chunks, so paths relative to it stay the same), and `import()`
 * of an external goes through the loader's `__zengImport` (code restored from a V8 code
 * cache has no `importModuleDynamically`, so a plain `import()` in it fails), or becomes a
 * `require` for `REQUIRED_EXTERNALS`.
 */
async function buildHeadless() {
  const result = await build({
    ...common,
    entryPoints: [join(root, "src", "headless.ts")],
    format: "cjs",
    write: false,
    outdir: join(outdir, "chunks"),
    define: { ...common.define, "import.meta.url": "__zengImportMetaUrl" },
    banner: { js: 'var __zengImportMetaUrl = require("node:url").pathToFileURL(__filename).href;' },
  });
  const [output] = result.outputFiles;
  const code = deferBuiltins(dropRedundantNames(asciiOnly(output.text))).code.replace(
    /\bimport\("([^"\s]+)"\)/g,
    (all, specifier) =>
      REQUIRED_EXTERNALS.includes(specifier)
        ? `Promise.resolve().then(() => require(${JSON.stringify(specifier)}))`
        : specifier.startsWith("node:") ||
            external.some((e) => specifier === e || specifier.startsWith(`${e}/`))
          ? `__zengImport(${JSON.stringify(specifier)})`
          : all,
  );
  // The file is the function src/code-cache.ts calls: wrapping it there would hold a second
  // copy of these megabytes while V8 compiles.
  const wrapped = `(function (exports, require, module, __filename, __dirname, __zengImport) {${code}\n})`;
  const name = `headless-${createHash("sha256").update(wrapped).digest("hex").slice(0, 12)}.cjs`;
  await mkdir(join(outdir, "chunks"), { recursive: true });
  await writeFile(join(outdir, "chunks", name), wrapped);
  return name;
}

await rm(join(outdir, "chunks"), { recursive: true, force: true });
const headless = await buildHeadless();
await build({
  ...common,
  entryPoints: { main: join(root, "src", "cli.ts") },
  splitting: true,
  format: "esm",
  outdir,
  chunkNames: "chunks/[name]-[hash]",
  define: { ...common.define, ZENG_HEADLESS_BUNDLE: JSON.stringify(headless) },
  // Bundled CommonJS code calls require() for Node's own modules.
  banner: { js: REQUIRE_BANNER },
});
// The bin: a CommonJS front (src/bin.ts) that runs `zeng -p` without Node's ES module loader
// and imports main.js for every other command. `import.meta.url` is its own URL (it sits
// beside main.js, so `./chunks/` and `./main.js` resolve as from there).
await build({
  ...common,
  entryPoints: [join(root, "src", "bin.ts")],
  format: "cjs",
  outfile: join(outdir, "zeng.cjs"),
  define: {
    ...common.define,
    ZENG_HEADLESS_BUNDLE: JSON.stringify(headless),
    "import.meta.url": "__zengEntryUrl",
  },
  banner: { js: 'var __zengEntryUrl = require("node:url").pathToFileURL(__filename).href;' },
});
await chmod(join(outdir, "zeng.cjs"), 0o755);
// The repo map's worker thread: its own small bundle next to main.js (main.js and its chunks
// stay as they are).
await bundleRepoMapWorker(build, import.meta.resolve("@z-engine/engine"), outdir);
await chmod(join(outdir, "main.js"), 0o755);
// The engine's decision classifiers (.onnx) in dist/models/ (onnxruntime-node, external,
// resolves from dist/).
await copyEngineModels(import.meta.resolve("@z-engine/engine"), outdir);
