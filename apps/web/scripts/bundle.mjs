// Bundles the browser page (ui/) into dist/public/app.js and app.css with esbuild: no CDN, the
// page works offline. The server reads both at start.
import { chmod, copyFile, mkdir, rm } from "node:fs/promises";
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

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const outdir = join(root, "dist", "public");
await mkdir(outdir, { recursive: true });
await build({
  entryPoints: { app: join(root, "ui", "main.tsx") },
  bundle: true,
  format: "esm",
  platform: "browser",
  target: "es2022",
  minify: true,
  jsx: "automatic",
  define: { "process.env.NODE_ENV": '"production"' },
  outdir,
  logLevel: "warning",
});
await copyFile(join(root, "ui", "app.css"), join(outdir, "app.css"));

// The server: one file plus lazily loaded chunks (the engine loads while the page is served).
// Packages that find files next to their own code stay external (dependencies of this package);
// the repo map's worker is its own bundle beside main.js and the decision classifiers go to
// dist/models/, where the bundled engine looks for them.
await rm(join(root, "dist", "chunks"), { recursive: true, force: true });
await build({
  entryPoints: { main: join(root, "src", "bin.ts") },
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  outdir: join(root, "dist"),
  chunkNames: "chunks/[name]-[hash]",
  external: ENGINE_EXTERNALS,
  plugins: [zodEnglishOnly],
  banner: { js: REQUIRE_BANNER },
  logLevel: "warning",
});
await chmod(join(root, "dist", "main.js"), 0o755);
await bundleRepoMapWorker(build, import.meta.resolve("@z-engine/engine"), join(root, "dist"));
await copyEngineModels(import.meta.resolve("@z-engine/engine"), join(root, "dist"));
