import type { ResourceLimits } from "node:worker_threads";
import type { RepoMapFocus } from "./rank.js";
import type { RenderedMap } from "./render.js";
import type { IndexUpdate } from "./repo-index.js";

/** What the repo map worker is started with (`workerData`). */
export type WorkerSetup =
  | {
      readonly role: "index";
      readonly root: string;
      readonly cacheFile?: string;
      /** Parser threads beside the worker's own. */
      readonly helpers: number;
    }
  | { readonly role: "parser" };

/** What the main thread asks the index worker. */
export type WorkerCommand =
  | {
      readonly type: "build";
      readonly id: number;
      readonly paths: readonly string[];
      readonly tokens: number;
      readonly focus?: RepoMapFocus;
    }
  /** Stops build `id` (running or queued), or every build when no id is given (closing). */
  | { readonly type: "stop"; readonly id?: number };

/** What the index worker answers. */
export type WorkerReply =
  | {
      readonly type: "built";
      readonly id: number;
      readonly map: RenderedMap;
      readonly update: IndexUpdate;
      readonly buildMs: number;
    }
  | {
      readonly type: "failed";
      readonly id: number;
      readonly message: string;
      readonly stopped: boolean;
    }
  | { readonly type: "saved"; readonly problem: string | null }
  | { readonly type: "stopped" };

/**
 * The repo map's threads keep a small young generation: they allocate many short-lived
 * strings and nodes, and a smaller nursery is collected sooner, keeping their memory low.
 */
export const WORKER_LIMITS: ResourceLimits = { maxYoungGenerationSizeMb: 4 };

/**
 * Options every repo map thread starts with: {@link WORKER_LIMITS}, and none of the
 * process's own Node flags (a host's `--input-type` or loader flags would stop a worker
 * from starting; the worker is plain compiled JavaScript).
 */
export const WORKER_OPTIONS = { resourceLimits: WORKER_LIMITS, execArgv: [] as string[] };

/**
 * A parser thread holds one batch of files at a time and keeps nothing between batches (its
 * heap is some 5 MB after a collection, the grammar and query loaded), so its old generation
 * is capped: what it promotes (texts of large files, match objects) is collected at a few MB
 * more instead of piling up to 15-20 MB of heap during a cold build of the bench's codebase.
 * Its tree-sitter (wasm) memory is outside this limit. One 250 KB file made of nothing but
 * declarations fits (a batch of two such files needs 24 MB): a batch too large ends the
 * thread, its files are parsed by the index thread, and `ParserPool` starts a new parser
 * thread for the later batches. (Peak RSS of the bench's cold build, medians: 143-146 MB with
 * 12 or 16 MB, 149-151 MB with 24, 156-157 MB uncapped.)
 */
export const PARSER_OPTIONS = {
  resourceLimits: { ...WORKER_LIMITS, maxOldGenerationSizeMb: 16 },
  execArgv: [] as string[],
};

/** How much nicer the repo map's threads are than the thread that starts them, on Linux (at most 19). */
export const WORKER_NICE = 10;
