import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { RepoMapFocus } from "./rank.js";
import type { RenderedMap } from "./render.js";
import { type IndexUpdate, RepoIndex } from "./repo-index.js";
import { renderRepoMap } from "./repo-map.js";
import {
  WORKER_OPTIONS,
  type WorkerCommand,
  type WorkerReply,
  type WorkerSetup,
} from "./worker-protocol.js";

/** How a {@link RepoMapBuilder} is set up. */
export interface RepoMapBuilderOptions {
  /** The project folder; paths given to `build` are relative to it, with `/`. */
  readonly root: string;
  /** The tag cache file in the data folder. */
  readonly cacheFile?: string;
  /**
   * The worker script: by default `repo-map-worker.js` beside this module (or one folder up,
   * where a bundler put this module in a chunk); `null` builds on this thread, in slices.
   */
  readonly script?: URL | null;
  /**
   * Projects listing fewer paths than this at the first build are built on this thread
   * (default {@link WORKER_FROM_PATHS}): their parse takes milliseconds, and a worker thread
   * costs some 15-30 MB of memory.
   */
  readonly workerFrom?: number;
  /**
   * Builds a small project (under `workerFrom` paths) in a worker too, with no parser threads
   * beside it: for a first build that parses every file (no tag cache yet), whose grammar
   * loading and parsing would otherwise run on this thread. Default false.
   */
  readonly smallInWorker?: boolean;
  /**
   * How long an idle worker lives after its last build (default {@link WORKER_IDLE_MS}):
   * its tags and tree-sitter memory (some 60 MB on a large project) are given back, and the
   * next build starts a worker over the cache file (a rebuild point is rare and off the
   * request path).
   */
  readonly idleMs?: number;
  /**
   * Threads that parse (default: the cores, at most 4). One: the worker parses; more: that
   * many parser threads beside the worker, which then reads the files and hands them out (it
   * parses a rebuild of a few files itself).
   */
  readonly threads?: number;
  /** A problem worth a warning that no build answers for (the cache file not written). */
  readonly onProblem?: (message: string) => void;
}

/** What to build: the project's files, the budget and the focus. */
export interface RepoMapRequest {
  readonly paths: readonly string[];
  readonly tokens: number;
  readonly focus?: RepoMapFocus;
}

/** A finished build: the rendered map, what the index did, and how long it took (ms). */
export interface RepoMapBuild {
  readonly map: RenderedMap;
  readonly update: IndexUpdate;
  readonly buildMs: number;
}

/** Below this many paths, a project's map is built on the caller's thread (see `workerFrom`). */
export const WORKER_FROM_PATHS = 500;

/** How long an idle worker is kept after a build, in ms. */
export const WORKER_IDLE_MS = 30_000;

/** Where builds run: a worker thread, or this thread when no worker script was found. */
export type RepoMapThread = "worker" | "main";

/** The worker script next to this module, if there is one (also from a bundler's chunk). */
export function defaultWorkerScript(): URL | null {
  for (const relative of ["./repo-map-worker.js", "../repo-map-worker.js"]) {
    const url = new URL(relative, import.meta.url);
    if (existsSync(fileURLToPath(url))) return url;
  }
  return null;
}

interface Waiting {
  readonly resolve: (build: RepoMapBuild) => void;
  readonly reject: (error: Error) => void;
}

/**
 * Builds repo maps off the caller's thread: a worker thread owns the index (and its cache
 * file) and spreads parsing over parser threads, so the caller's event loop only lists
 * paths and receives the rendered map. A small project (fewer than `workerFrom` paths at
 * the first build), or no worker script, builds on this thread in slices that yield to the
 * event loop. Builds run one after another.
 */
export class RepoMapBuilder {
  private worker: Worker | null = null;
  private local: RepoIndex | null = null;
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 0;
  private idleTimer: NodeJS.Timeout | undefined;
  /** Builds sent to the worker whose cache file is not written yet. */
  private unsaved = 0;
  private broken: Error | null = null;
  private saved: Array<() => void> = [];
  private stopped: Array<() => void> = [];
  private script: URL | null;
  private decided = false;
  /** A small project built in a worker: no parser threads beside it. */
  private small = false;

  constructor(private readonly options: RepoMapBuilderOptions) {
    this.script = options.script === undefined ? defaultWorkerScript() : options.script;
  }

  /** Whether a worker thread is running now (it ends `idleMs` after its last build). */
  get running(): boolean {
    return this.worker !== null;
  }

  /** Where builds run (decided by the first build's size; before it, where they would). */
  get thread(): RepoMapThread {
    return this.script ? "worker" : "main";
  }

  /**
   * Indexes `request.paths` and renders the map for its focus. Rejects with the signal's
   * reason when aborted (the tags found so far are kept in the cache), and with an Error
   * when the worker fails.
   */
  build(request: RepoMapRequest, signal?: AbortSignal): Promise<RepoMapBuild> {
    if (this.broken) return Promise.reject(this.broken);
    clearTimeout(this.idleTimer);
    if (!this.decided) {
      this.decided = true;
      if (request.paths.length < (this.options.workerFrom ?? WORKER_FROM_PATHS)) {
        if (this.options.smallInWorker && this.script) this.small = true;
        else this.script = null;
      }
    }
    if (!this.script) return this.buildHere(request, signal);
    signal?.throwIfAborted();
    const worker = this.start(this.script);
    const id = this.nextId++;
    const onAbort = () => worker.postMessage({ type: "stop", id } satisfies WorkerCommand);
    signal?.addEventListener("abort", onAbort, { once: true });
    this.unsaved++;
    return new Promise<RepoMapBuild>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.postMessage({ type: "build", id, ...request } satisfies WorkerCommand);
    })
      .catch((error: Error) => {
        throw signal?.aborted ? signal.reason : error;
      })
      .finally(() => signal?.removeEventListener("abort", onAbort));
  }

  /** Resolves once the cache file of the last build was written (or could not be). */
  whenSaved(): Promise<void> {
    if (this.unsaved === 0) return Promise.resolve();
    return new Promise((resolve) => this.saved.push(resolve));
  }

  private async buildHere(request: RepoMapRequest, signal?: AbortSignal): Promise<RepoMapBuild> {
    const started = performance.now();
    this.local ??= new RepoIndex({
      root: this.options.root,
      ...(this.options.cacheFile ? { cacheFile: this.options.cacheFile } : {}),
    });
    const index = this.local;
    try {
      const update = await index.update(request.paths, signal);
      const map = renderRepoMap(index.files, {
        tokens: request.tokens,
        ...(request.focus ? { focus: request.focus } : {}),
      });
      const build = { map, update, buildMs: performance.now() - started };
      setImmediate(() => this.reportSave(index.save()));
      return build;
    } catch (error) {
      this.reportSave(index.save());
      throw error;
    }
  }

  private reportSave(problem: string | null): void {
    if (problem) this.options.onProblem?.(problem);
  }

  private start(script: URL): Worker {
    if (this.worker) return this.worker;
    const threads = this.small ? 1 : (this.options.threads ?? Math.min(availableParallelism(), 4));
    const setup: WorkerSetup = {
      role: "index",
      root: this.options.root,
      ...(this.options.cacheFile ? { cacheFile: this.options.cacheFile } : {}),
      // One thread: the worker parses; more: that many parser threads beside it.
      helpers: threads > 1 ? threads : 0,
    };
    const worker = new Worker(script, { workerData: setup, ...WORKER_OPTIONS });
    // A session's worker never keeps the process alive; close() ends it.
    worker.unref();
    worker.on("message", (reply: WorkerReply) => this.onReply(reply));
    // Only the current worker's end matters (a retired or closed one was ended on purpose).
    worker.on("error", (error) => {
      if (this.worker === worker)
        this.fail(new Error(`the repo map worker failed: ${error.message}`));
    });
    worker.on("exit", (code) => {
      if (this.worker === worker) this.fail(new Error(`the repo map worker exited (${code})`));
    });
    this.worker = worker;
    return worker;
  }

  private fail(error: Error): void {
    this.broken ??= error;
    for (const w of this.waiting.values()) w.reject(error);
    this.waiting.clear();
    this.flush();
  }

  /** Ends an idle worker after `idleMs`; the next build starts one over the cache file. */
  private scheduleRetire(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      const worker = this.worker;
      if (!worker || this.waiting.size > 0 || this.unsaved > 0) return;
      this.worker = null;
      void worker.terminate();
    }, this.options.idleMs ?? WORKER_IDLE_MS);
    this.idleTimer.unref();
  }

  private onReply(reply: WorkerReply): void {
    if (reply.type === "saved") {
      this.reportSave(reply.problem);
      this.unsaved = Math.max(0, this.unsaved - 1);
      if (this.unsaved === 0) {
        for (const done of this.saved.splice(0)) done();
        if (this.waiting.size === 0) this.scheduleRetire();
      }
      return;
    }
    if (reply.type === "stopped") {
      for (const done of this.stopped.splice(0)) done();
      return;
    }
    const waiting = this.waiting.get(reply.id);
    this.waiting.delete(reply.id);
    if (reply.type === "built") waiting?.resolve(reply);
    else waiting?.reject(new Error(reply.message));
  }

  private flush(): void {
    this.unsaved = 0;
    for (const done of [...this.saved.splice(0), ...this.stopped.splice(0)]) done();
  }

  /**
   * Stops a running build (it saves what it tagged) and ends the worker; resolves once it
   * stopped, or after `waitMs` (a grammar still loading cannot be stopped). Never rejects.
   */
  async close(waitMs = 1000): Promise<void> {
    const closed = new Error("the repo map builder is closed");
    this.broken ??= closed;
    clearTimeout(this.idleTimer);
    const worker = this.worker;
    if (!worker) return;
    let timer: NodeJS.Timeout | undefined;
    const cap = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, waitMs);
      timer.unref();
    });
    const stopped = new Promise<void>((resolve) => this.stopped.push(resolve));
    worker.postMessage({ type: "stop" } satisfies WorkerCommand);
    await Promise.race([stopped, cap]);
    clearTimeout(timer);
    this.worker = null;
    await worker.terminate();
    this.fail(closed);
  }
}
