// Bundles each SDK into one ES module, dist/vendor/anthropic-sdk.js and dist/vendor/openai.js,
// that src/<kind>/client.ts imports (as `#anthropic-sdk`, `#openai-sdk`: package.json "imports").
// Why: Node 20's ESM loader pays per file, and the Anthropic SDK is ~330 files: a host that imports
// the engine unbundled spent ~150-250 ms of its first request resolving, reading and linking
// them; one file loads in ~40 ms (README). The OpenAI SDK is ~115 files. Same code, names kept
// (errors are classified by class name); their dependencies are inlined, none is left external.
// Of the Anthropic SDK only what llm uses is bundled (scripts/anthropic-sdk-entry.mjs: the
// client core, Messages and the errors), a quarter of the whole.
import { build } from "esbuild";
import { streamBodyCheck } from "./stream-body-check.mjs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

const common = {
  absWorkingDir: root,
  bundle: true,
  platform: "node",
  target: "node20",
  format: "esm",
  keepNames: true,
  // The globals Headers and FormData as src/sdk-globals.ts makes them: Node's own load its
  // whole fetch (undici) when touched, and requests go out through node:http (nodeFetch).
  inject: [join(root, "dist", "sdk-globals.js")],
  legalComments: "eof",
  logLevel: "warning",
};

await Promise.all([
  build({
    ...common,
    entryPoints: [join(root, "scripts", "anthropic-sdk-entry.mjs")],
    outfile: join(root, "dist", "vendor", "anthropic-sdk.js"),
    // The request-body stream test without loading Node's web streams (see the file).
    plugins: [streamBodyCheck],
  }),
  build({
    ...common,
    entryPoints: ["openai"],
    outfile: join(root, "dist", "vendor", "openai.js"),
    plugins: [streamBodyCheck],
  }),
]);
