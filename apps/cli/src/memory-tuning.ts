// How `zeng -p` keeps its peak memory down (issue 18 item 3; README, "Memory"). V8 keeps a
// hash of its flags in each code cache and rejects one made under other flags (Node's own
// built-in modules' cache too), so the flags change neither at the start (every start would
// compile Node's modules again) nor before the headless bundle's cache is written (every
// later start would miss it). They change at the first of a second request's start (a first
// repo map build starts with it) and this thread's first WebAssembly compile (the shell
// parser the engine loads while the model answers, or a command the gate parses), since a
// grammar must compile under them; and, in a run that writes no cache, `FLAG_DELAY_MS` after
// the first request starts, which shrinks the heap sooner. A run that writes the cache
// writes it just before, so it holds what the run compiled until then: round 1's tool call
// too when the model answered at once.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/**
 * The flags `favourMemory` sets once a run is under way (see the file's head):
 * - `--optimize-for-size`: a long session makes a lot of short-lived garbage (each request
 *   re-serialises the conversation); the flag keeps the heap's growth small. It is not set
 *   at the start because it slows the start (a smaller young generation while the bundle
 *   loads) and would change the code caches' flag hash.
 * - `--liftoff-only`: WebAssembly (tree-sitter for the shell command policy and the repo map)
 *   stays on V8's baseline compiler. Under the default dynamic tiering, loading a
 *   tree-sitter grammar runs one huge function long enough for TurboFan to recompile it on
 *   a background thread: 40-60 MB of memory for the bash grammar, about 20 MB for
 *   JavaScript's, for code that never runs again. A module's tiers are fixed when it
 *   compiles, so the flags change before any grammar compiles: the shell parser's (the
 *   engine loads it 100 ms after the first request, or the gate when it first checks a
 *   command that is more than plain words) and the repo map's (its first build starts with
 *   the second request, in a worker thread for a large project).
 */
export const MEMORY_FLAGS: readonly string[] = ["--optimize-for-size", "--liftoff-only"];

/**
 * How long after the first request starts a run that writes no code cache changes the flags
 * at the latest: after the request is on its way (the modules it loads still find Node's
 * cache) and before the engine loads the shell parser (100 ms after the first request), so
 * the heap shrinks before that load (the harness peaked 3-4 MB higher with the flags changed
 * at the load).
 */
export const FLAG_DELAY_MS = 50;

/**
 * Node's modules the first rounds need, loaded just before the flags change: once they
 * change, V8 rejects Node's own code cache too, and a module loaded later compiles from its
 * source (on the 2-core machine child_process with what it loads 0.7 ms, then 3.0 ms; zlib
 * 0.8 ms, then 1.7 ms; perf_hooks 0.7-1.0 ms, then 3.2-4.4 ms). The first shell command
 * spawns; the first snapshot deflates; the repo map's first build, when the second request
 * goes out, times its slices with `performance.now()`.
 */
export const BEFORE_FLAGS_BUILTINS: readonly string[] = [
  "node:child_process",
  "node:zlib",
  "node:perf_hooks",
];

/** The answer after which one full garbage collection sizes the old generation. */
export const COLLECT_AT_ANSWER = 20;

/** The `WebAssembly` functions that compile a module. */
const WASM_COMPILERS = [
  "Module",
  "compile",
  "instantiate",
  "compileStreaming",
  "instantiateStreaming",
] as const;

/**
 * Calls `before` once, just before this thread's first WebAssembly compile: each of
 * `WebAssembly`'s compiling functions (`new WebAssembly.Module`, `compile`, `instantiate` and
 * the streaming two) is replaced by a stand-in (a proxy of it, so `instanceof` and its
 * statics are unchanged) until then. Returns the function that puts the originals back
 * without calling `before` (idempotent); the first compile puts them back too. Other threads
 * have a `WebAssembly` of their own, which this does not watch. `api` is the object whose
 * functions are replaced (default: this thread's `WebAssembly`).
 */
export function beforeFirstWasmCompile(
  before: () => void,
  api: object | undefined = (globalThis as { WebAssembly?: object }).WebAssembly,
): () => void {
  const target = (api ?? {}) as Record<string, unknown>;
  const originals = new Map<string, unknown>();
  let armed = true;
  const disarm = () => {
    if (!armed) return;
    armed = false;
    for (const [name, original] of originals) target[name] = original;
  };
  const fire = () => {
    if (!armed) return;
    disarm();
    before();
  };
  for (const name of WASM_COMPILERS) {
    const original = target[name];
    if (typeof original !== "function") continue;
    originals.set(name, original);
    target[name] = new Proxy(original, {
      construct(fn, args, newTarget) {
        fire();
        return Reflect.construct(fn, args, newTarget) as object;
      },
      apply(fn, self, args) {
        fire();
        return Reflect.apply(fn, self, args) as unknown;
      },
    });
  }
  return disarm;
}

/** What `favourMemory` calls; tests pass their own. */
export interface MemoryActions {
  /**
   * True when this run writes no code cache (it used one, or has none): the flags change
   * `FLAG_DELAY_MS` after the first request at the latest.
   */
  readonly cacheSettled?: boolean;
  /** Called once, just before the flags change (writes the code cache when the run writes one). */
  readonly beforeFlags?: () => void;
  readonly setFlags?: (flag: string) => void;
  /** Loads what must load before the flags change (default: `BEFORE_FLAGS_BUILTINS`). */
  readonly preload?: () => void;
  readonly collect?: () => void;
  /**
   * Calls its argument before this thread's first WebAssembly compile, and returns the
   * function that stops watching (default: {@link beforeFirstWasmCompile}).
   */
  readonly watchWasm?: (before: () => void) => () => void;
}

/** A full garbage collection, through a `gc` function exposed in a new context only. */
function collectGarbage(): void {
  setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as () => void)();
}

/** What a run tells `favourMemory`: a request started, or an answer finished. */
export type ModelStep = "requestStarted" | "answerFinished";

/**
 * Returns the function a run calls at each model step (`assistantStarted`: a request
 * started; `assistantFinished`: an answer finished). It sets `MEMORY_FLAGS` once, after
 * `beforeFlags` and loading `BEFORE_FLAGS_BUILTINS`, at the first of a second request's
 * start, this thread's first WebAssembly compile (watched from the call on) and, when
 * `cacheSettled`, `FLAG_DELAY_MS` after the first request started. A run that writes the
 * cache, of one request and no compile, never changes them.
 *
 * At answer `COLLECT_AT_ANSWER` it runs one full garbage collection: until V8's first full
 * collection its old generation grows by a start-up limit rather than by what is live, and
 * the first hundred rounds of a long session left some 40 MB of garbage there (a 1,000-round
 * session peaked at 159-161 MB of RSS without it). Sessions of fewer answers never pay for
 * it. Never throws when the actions do not.
 */
export function favourMemory(actions: MemoryActions = {}): (step: ModelStep) => void {
  // Read when used: node:v8 loads on first use in the headless bundle (scripts/defer-builtins.mjs).
  const setFlags = actions.setFlags ?? ((flag: string) => setFlagsFromString(flag));
  const collect = actions.collect ?? collectGarbage;
  const preload =
    actions.preload ??
    (() => {
      for (const id of BEFORE_FLAGS_BUILTINS) process.getBuiltinModule(id);
    });
  let flagged = false;
  let requests = 0;
  let answers = 0;
  let stopWatching: () => void = () => {};
  const flag = () => {
    if (flagged) return;
    flagged = true;
    stopWatching();
    actions.beforeFlags?.();
    preload();
    for (const f of MEMORY_FLAGS) setFlags(f);
  };
  stopWatching = (actions.watchWasm ?? beforeFirstWasmCompile)(flag);
  return (step) => {
    if (step === "requestStarted") {
      if (++requests > 1) flag();
      else if (actions.cacheSettled === true) setTimeout(flag, FLAG_DELAY_MS).unref();
      return;
    }
    if (++answers === COLLECT_AT_ANSWER) collect();
  };
}
