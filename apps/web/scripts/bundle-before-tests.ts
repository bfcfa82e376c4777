import { execFileSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** vitest globalSetup: the browser tests load dist/public, so bundle the page from ui/ first. */
export default function setup(): void {
  const script = join(dirname(fileURLToPath(import.meta.url)), "bundle.mjs");
  execFileSync(process.execPath, [script], { stdio: "inherit" });
}
