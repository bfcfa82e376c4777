import { execFileSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** vitest globalSetup: the end-to-end tests spawn dist/zeng.cjs (and through it dist/main.js), so build it from src first. */
export default function setup(): void {
  const script = join(dirname(fileURLToPath(import.meta.url)), "bundle.mjs");
  execFileSync(process.execPath, [script], { stdio: "inherit" });
}
