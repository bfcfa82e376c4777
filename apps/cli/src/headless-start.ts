// Starts `zeng -p`: loads the headless code (the CommonJS bundle with its V8 code cache in
// the bundled CLI, the ES module otherwise) and runs it.
import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { HeadlessArgs } from "./args.js";
import { loadCached } from "./code-cache.js";
import type { Io } from "./output/result.js";

/** The headless bundle's file name in dist/chunks/, set by scripts/bundle.mjs; absent unbundled. */
declare const ZENG_HEADLESS_BUNDLE: string | undefined;

type Headless = typeof import("./headless.js");

/**
 * config's `resolvePaths(env).dataDir`, restated: importing config here would put its chunk
 * (and zod's) on every command's start path, since esbuild groups paths.ts with the rest
 * of config. `headless-start.test.ts` holds the two equal.
 */
export function dataDirOf(env: NodeJS.ProcessEnv): string {
  const set = (value: string | undefined) =>
    value === undefined || value === "" ? undefined : value;
  const xdg = set(env.XDG_DATA_HOME);
  const zData = set(env.ZENGINE_HOME);
  if (zData) return resolve(zData);
  if (xdg && isAbsolute(xdg)) return join(xdg, "z-engine");
  return join(set(env.HOME) ?? homedir(), ".local", "share", "z-engine");
}

/**
 * The bundle's `import()` calls resolve from here: this module is part of dist/main.js
 * (cli.ts imports it statically, so `./chunks/` below is next to it), whose
 * node_modules hold the bundle's externals.
 */
const importer = (specifier: string): Promise<unknown> => import(specifier);

async function loadHeadless(
  env: NodeJS.ProcessEnv,
): Promise<{ headless: Headless; save(): void; settled: boolean }> {
  if (typeof ZENG_HEADLESS_BUNDLE === "undefined")
    return { headless: await import("./headless.js"), save: () => undefined, settled: true };
  const bundle = join(fileURLToPath(new URL("./chunks/", import.meta.url)), ZENG_HEADLESS_BUNDLE);
  const cacheDir =
    env.ZENGINE_CODE_CACHE === "off" ? undefined : join(dataDirOf(env), "code-cache");
  const loaded = loadCached<Headless>(bundle, cacheDir, importer);
  return { headless: loaded.exports, save: () => loaded.save(), settled: loaded.cache !== "miss" };
}

/**
 * Runs `zeng -p` with `args` and resolves with the exit code (see `runHeadless`). A run
 * without a code cache writes one just before it changes V8's flags (memory-tuning.ts), so
 * it holds what the run compiled until then, or at its end when they never changed.
 */
export async function startHeadless(
  args: HeadlessArgs,
  io: Io,
  env: NodeJS.ProcessEnv,
): Promise<number> {
  const { headless, save, settled } = await loadHeadless(env);
  const code = await headless.runHeadless(args, io, headless.takeEnvironment(env), {
    beforeFlags: save,
    cacheSettled: settled,
  });
  // The flags never changed (one request, no WebAssembly; a built-in command), so save now.
  save();
  return code;
}
