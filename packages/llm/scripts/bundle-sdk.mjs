// Bundles @anthropic-ai/sdk into one ES module, dist/vendor/anthropic-sdk.js, that
// src/anthropic/client.ts imports (as `#anthropic-sdk`, see package.json "imports").
// Why: Node 20's ESM loader pays per file, and the SDK is ~330 files: a host that imports
// the engine unbundled spent ~150-250 ms of its first request resolving, reading and linking
// them; one file loads in ~40 ms (README, "Loading the SDKs"). Same code, names kept (errors
// are classified by class name); its dependencies are inlined, none is left external.
import { build } from "esbuild";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

await build({
  entryPoints: ["@anthropic-ai/sdk"],
  absWorkingDir: root,
  outfile: join(root, "dist", "vendor", "anthropic-sdk.js"),
  bundle: true,
  platform: "node",
  target: "node20",
  format: "esm",
  keepNames: true,
  legalComments: "eof",
  logLevel: "warning",
});
