// Bundles the browser page (ui/) into dist/public/app.js and app.css with esbuild: no CDN, the
// page works offline. The server reads both at start.
import { copyFile, mkdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

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
