import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Env } from "@z-engine/config";
import { childEnvironment, isProviderKeyVariable, spawnChild } from "@z-engine/engine";
import { EXIT } from "../exit-codes.js";
import type { Io } from "../output/result.js";

/**
 * The web app's bin: `ZENGINE_WEB_BIN`, else apps/web's dist/main.js beside this CLI in the
 * repository (apps spawn each other's bins, never import them).
 */
export function webBin(env: Env): string {
  if (env.ZENGINE_WEB_BIN) return env.ZENGINE_WEB_BIN;
  // This module sits in src/sub, dist/ or dist/chunks/: the CLI's folder holds its package.json.
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let up = 0; up < 4; up++, dir = dirname(dir)) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest) && readFileSync(manifest, "utf8").includes('"name": "@z-engine/cli"'))
      return join(dir, "..", "web", "dist", "main.js");
  }
  return join(dir, "web", "dist", "main.js");
}

/**
 * `zeng web [--open] [--port N]`: runs the web UI's bin with Node through the child-process
 * door, in the working folder (`userChosen`), with the provider keys it needs and no other
 * secret; its output is this process's. Resolves with its exit code (1 when it is missing
 * or killed).
 */
export async function runWeb(argv: readonly string[], io: Io, env: Env): Promise<number> {
  const bin = webBin(env);
  if (!existsSync(bin)) {
    io.stderr(
      `zeng: web: the web UI is not installed (no ${bin}; build apps/web or set ZENGINE_WEB_BIN)\n`,
    );
    return EXIT.failed;
  }
  const keys = Object.keys(env).filter(isProviderKeyVariable);
  const child = spawnChild({
    program: process.execPath,
    args: [bin, ...argv],
    folder: { path: process.cwd(), reason: "userChosen" },
    env: childEnvironment(env, { allow: keys }),
    stdio: "inherit",
    group: false,
  });
  return new Promise((resolve) => {
    child.on("error", (error) => {
      io.stderr(`zeng: web: ${error.message}\n`);
      resolve(EXIT.failed);
    });
    child.on("exit", (code) => resolve(code ?? EXIT.failed));
  });
}
