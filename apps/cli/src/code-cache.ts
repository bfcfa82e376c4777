// Loads a CommonJS bundle through `vm.Script` with a V8 code cache (design.md §2, issue 18).
// Why: Node 20 has no compile cache for ES modules, and compiling the headless bundle's
// megabytes of JavaScript was the largest single cost of `zeng -p`'s start. A script's
// `cachedData` skips parsing and compiling what an earlier run already compiled.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join } from "node:path";
import { Script } from "node:vm";

/** A loaded bundle: its exports, and a way to store the code compiled so far for next time. */
export interface CachedModule<T> {
  readonly exports: T;
  /** `"hit"`: the cache was used; `"miss"`: none or rejected; `"off"`: no cache folder. */
  readonly cache: "hit" | "miss" | "off";
  /**
   * Writes the code cache when this run did not use one (missing or rejected by V8), with
   * every function compiled so far. Call it before V8 flags change (`setFlagsFromString`):
   * V8 rejects a cache made under other flags. Never throws (a read-only data folder only
   * means no cache); runs at most once.
   */
  save(): void;
}

/** The file a bundle's cache lives in: one per bundle file, Node version and architecture. */
export function cacheFileFor(bundle: string, cacheDir: string): string {
  return join(cacheDir, `${basename(bundle)}-${process.version}-${process.arch}.bin`);
}

function readCache(file: string | undefined): Buffer | undefined {
  if (file === undefined) return undefined;
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Writes `data` to `file` through a temporary file, so a reader never sees half of it. */
function writeAtomically(file: string, data: Buffer): void {
  // In the data folder, the user's alone (it may be the first thing made there).
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, data, { mode: 0o600 });
  renameSync(temporary, file);
}

/**
 * Runs the CommonJS bundle `bundle` (a file whose name changes with its content, so a cache
 * never outlives its code) in this context and returns its `module.exports`. The file is one
 * function expression, `(function (exports, require, module, __filename, __dirname,
 * __zengImport) {...})`, as scripts/bundle.mjs writes it (wrapping it here would copy it). `cacheDir`
 * (the data folder's cache folder) holds the code cache; undefined runs without one. The
 * bundle's `import()` calls go through the parameter `__zengImport` (scripts/bundle.mjs
 * rewrites them), because code restored from a cache loses `importModuleDynamically`.
 * Throws what reading or running the bundle throws.
 */
export function loadCached<T>(
  bundle: string,
  cacheDir: string | undefined,
  importer: (specifier: string) => Promise<unknown>,
): CachedModule<T> {
  const cacheFile = cacheDir === undefined ? undefined : cacheFileFor(bundle, cacheDir);
  const cachedData = readCache(cacheFile);
  // scripts/bundle.mjs writes the bundle in ASCII only, so latin1 reads it exactly, and
  // faster than utf8's decoding.
  const source = readFileSync(bundle, "latin1");
  const script = new Script(source, { filename: bundle, ...(cachedData ? { cachedData } : {}) });
  const used = cachedData !== undefined && script.cachedDataRejected !== true;
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  const module = { exports: {} as T };
  run.call(
    module.exports,
    module.exports,
    createRequire(bundle),
    module,
    bundle,
    dirname(bundle),
    importer,
  );
  let saved = used;
  return {
    exports: module.exports,
    cache: cacheFile === undefined ? "off" : used ? "hit" : "miss",
    save() {
      if (saved || cacheFile === undefined) return;
      saved = true;
      try {
        writeAtomically(cacheFile, script.createCachedData());
      } catch {
        // No cache this time: the next run compiles again.
      }
    },
  };
}
