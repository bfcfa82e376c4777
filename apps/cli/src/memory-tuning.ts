// How `zeng -p` keeps its peak memory down (issue 18 item 3; README, "Memory"). V8 keeps a
// hash of its flags in each code cache and rejects one made under other flags (Node's own
// built-in modules' cache too), so the flags change neither at the start (every start would
// compile Node's modules again) nor before the headless bundle's cache is written (every
// later start would miss it): at the first answer, or `FLAG_DELAY_MS` after the first
// request starts if that comes first and this run writes no cache (it used one, or has
// none); when it writes one, at the first answer, just after writing it.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/**
 * The flags set at the first request or answer (see the file's head):
 * - `--optimize-for-size`: a long session makes a lot of short-lived garbage (each request
 *   re-serialises the conversation); the flag keeps the heap's growth small. It is not set
 *   at the start because it slows the start (a smaller young generation while the bundle
 *   loads) and would change the code caches' flag hash.
 * - `--liftoff-only`: WebAssembly (tree-sitter for the shell command policy and the repo map)
 *   stays on V8's baseline compiler. Under the default dynamic tiering, loading a
 *   tree-sitter grammar runs one huge function long enough for TurboFan to recompile it on
 *   a background thread: 40-60 MB of memory for the bash grammar, about 20 MB for
 *   JavaScript's, for code that never runs again. A module's tiers are fixed when it
 *   compiles; the grammars load after the first request (the repo map's) and when the first
 *   shell command is checked (bash's).
 */
export const FIRST_ANSWER_FLAGS: readonly string[] = ["--optimize-for-size", "--liftoff-only"];

/**
 * How long after the first request starts the flags change when no answer came before:
 * after the request is on its way (the modules it loads still find Node's cache) and before
 * the shell parser's grammar loads (the engine starts that 100 ms after the first request),
 * which must compile under `--liftoff-only`. A model that answers sooner (a local or a
 * scripted one) has the flags change at its answer, before the first tool call runs.
 */
export const FLAG_DELAY_MS = 50;

/**
 * Node's modules the first tool calls need, loaded just before the flags change: once they
 * change, V8 rejects Node's own code cache too, and a module loaded later compiles from its
 * source (on the 2-core machine child_process with what it loads 0.7 ms, then 3.0 ms; zlib
 * 0.8 ms, then 1.7 ms). The first shell command spawns; the first snapshot deflates.
 */
export const BEFORE_FLAGS_BUILTINS: readonly string[] = ["node:child_process", "node:zlib"];

/** The answer after which one full garbage collection sizes the old generation. */
export const COLLECT_AT_ANSWER = 20;

/** What `favourMemory` calls; tests pass their own. */
export interface MemoryActions {
  /**
   * True when this run writes no code cache (it used one or has none): the flags may change
   * at the first request. Otherwise they change at the first answer, after `beforeFlags`.
   */
  readonly cacheSettled?: boolean;
  /** Called once, just before the flags change at the first answer (writes the code cache). */
  readonly beforeFlags?: () => void;
  readonly setFlags?: (flag: string) => void;
  /** Loads what must load before the flags change (default: `BEFORE_FLAGS_BUILTINS`). */
  readonly preload?: () => void;
  readonly collect?: () => void;
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
 * started; `assistantFinished`: an answer finished). It sets `FIRST_ANSWER_FLAGS` once,
 * after loading `BEFORE_FLAGS_BUILTINS`: at the first answer (after `beforeFlags`), or
 * `FLAG_DELAY_MS` after the first request started when `cacheSettled` and no answer came by
 * then. At answer
 * `COLLECT_AT_ANSWER` it runs one full garbage collection: until V8's first full collection
 * its old generation grows by a start-up limit rather than by what is live, and the first
 * hundred rounds of a long session left some 40 MB of garbage there (a 1,000-round session
 * peaked at 159-161 MB of RSS without it). Sessions of fewer answers never pay for it.
 * Never throws when the actions do not.
 */
export function favourMemory(actions: MemoryActions = {}): (step: ModelStep) => void {
  // Read when used: node:v8 loads on first use in the headless bundle (scripts/defer-builtins.mjs).
  const setFlags = actions.setFlags ?? ((flag: string) => setFlagsFromString(flag));
  const collect = actions.collect ?? collectGarbage;
  let flagged = false;
  let answers = 0;
  const preload =
    actions.preload ??
    (() => {
      for (const id of BEFORE_FLAGS_BUILTINS) process.getBuiltinModule(id);
    });
  const flag = () => {
    flagged = true;
    preload();
    for (const f of FIRST_ANSWER_FLAGS) setFlags(f);
  };
  return (step) => {
    if (step === "requestStarted") {
      if (!flagged && actions.cacheSettled === true)
        setTimeout(() => flagged || flag(), FLAG_DELAY_MS).unref();
      return;
    }
    answers++;
    if (!flagged) {
      actions.beforeFlags?.();
      flag();
    }
    if (answers === COLLECT_AT_ANSWER) collect();
  };
}
