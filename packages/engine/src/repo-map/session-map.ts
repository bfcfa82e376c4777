import { existsSync } from "node:fs";
import {
  mapSnapshotOf,
  type RenderedMap,
  RepoMapBuilder,
  saveMapSnapshot,
  WORKER_FROM_PATHS,
} from "@z-engine/context";
import { admittedPaths, refusedNotice } from "./admitted-paths.js";
import { type CachedMap, loadCachedMap, within } from "./cached-map.js";
import { focusFrom } from "./focus.js";
import {
  CLOSE_WAIT_MS,
  FIRST_BUILD_WAIT_MS,
  FIRST_MAP_WAIT_MS,
  FIRST_ROUND_WAIT_MS,
  repoMapKey,
  type RepoMapStatus,
  type SessionRepoMapOptions,
  type Made,
  type Shown,
  statusOf,
} from "./map-status.js";
import { listProjectFiles } from "./project-files.js";
import { StartGate } from "./start-gate.js";
import { visibleMap } from "./visible-map.js";

/**
 * A session's repo map, off the request path. A map joins the conversation as a reminder in
 * the next user message the session records (a prompt or a round's tool results), so the
 * system prompt and the tools never change for it and every request extends the previous one.
 * When the project has a snapshot from an earlier session's build, its map (checked against
 * the door now) joins the first prompt; the first build starts when the first request goes
 * out (a fresh project's in a worker) and only refreshes the snapshot when one was shown.
 * A rebuild (after a compaction or a reload) queues the new map the same way.
 */
export class SessionRepoMap {
  private readonly builder: RepoMapBuilder;
  private readonly controller = new AbortController();
  private readonly gate = new StartGate(() => this.queueBuild(true));
  private building: Promise<void> | null = null;
  private saving: Promise<void> = Promise.resolve();
  private builds = 0;
  private failed = false;
  private shown: Shown | null = null;
  private stats = { indexed: 0, parsed: 0, buildMs: 0 };
  /** The last map made (built or from the snapshot), to queue again after a rewind. */
  private last: (Made & { readonly map: RenderedMap }) | null = null;
  private cached: Promise<CachedMap | null> = Promise.resolve(null);
  private opened: Promise<void> = Promise.resolve();
  private firstMessage = true;
  /** A fresh project's first build, which the first tool results wait for when it is small. */
  private firstBuild: Promise<void> | null = null;
  private endFirstBuild: () => void = () => {};
  private listing: Promise<readonly string[]> | undefined;

  constructor(private readonly options: SessionRepoMapOptions) {
    this.builder = new RepoMapBuilder({
      root: options.projectRoot,
      cacheFile: options.cacheFile,
      onProblem: options.onProblem,
      // No tag cache yet: every file is parsed, so even a small project's grammars load in a
      // worker, not on the session's thread.
      smallInWorker: !existsSync(options.cacheFile),
      ...(options.script !== undefined ? { script: options.script } : {}),
      ...(options.workerFrom !== undefined ? { workerFrom: options.workerFrom } : {}),
    });
  }

  /** Where builds run: `worker`, or `main` for a small project or without context's worker script. */
  get thread(): "worker" | "main" {
    return this.builder.thread;
  }

  /**
   * The session opened: starts reading the snapshot (its files through the door), to join the
   * first prompt ({@link beforeUserMessage}). The first build starts when the first request
   * goes out (or `fallbackMs` from now), so that it runs while the model answers: with a
   * snapshot it only refreshes it for the next session; without, its map joins the next user
   * message. A no-op when the map is off.
   */
  open(fallbackMs = 1000): void {
    const budget = this.options.tokens();
    if (budget <= 0 || this.controller.signal.aborted) return;
    const { mapFile, projectRoot, files } = this.options;
    this.cached = mapFile ? loadCachedMap(mapFile, projectRoot, budget, files) : this.cached;
    this.opened = this.cached.then((cached) => {
      if (this.controller.signal.aborted) return;
      if (!cached)
        this.firstBuild = new Promise((resolve) => {
          this.endFirstBuild = resolve;
        });
      this.gate.untilRequest(fallbackMs);
    });
  }

  /** The project's files as a build lists them (relative, sorted), listed once. Never rejects. */
  projectFiles(): Promise<readonly string[]> {
    this.listing ??= listProjectFiles(this.options.projectRoot, this.options.env).catch(() => []);
    return this.listing;
  }

  /** Starts the first build now (a no-op when the map is off). */
  start(): void {
    this.gate.now();
  }

  /** Holds the first build until the first round is over (see {@link StartGate}). */
  startAfterFirstResponse(fallbackMs = 1000, roundMs = FIRST_ROUND_WAIT_MS): void {
    this.gate.untilAfterFirstResponse(fallbackMs, roundMs);
  }

  /** The session's first model response arrived (idempotent). */
  firstResponse(): void {
    this.gate.firstResponse();
  }

  /** A model request went out: a held first build may start now. */
  requestSent(): void {
    this.gate.requestSent();
  }

  /**
   * The main agent is about to record a user message. The first (the first prompt) waits for
   * the snapshot read started at open, at most {@link FIRST_MAP_WAIT_MS}, and queues its map;
   * the first one after a fresh small project's build started waits for that build, at most
   * {@link FIRST_BUILD_WAIT_MS}, so its map joins the second request. Otherwise at once.
   * Never rejects.
   */
  async beforeUserMessage(): Promise<void> {
    if (this.firstMessage) {
      this.firstMessage = false;
      const cached = await within(this.cached, FIRST_MAP_WAIT_MS, null);
      if (cached) this.showCached(cached);
      return;
    }
    const first = this.firstBuild;
    if (!first || !this.building) return;
    this.firstBuild = null;
    await within(first, FIRST_BUILD_WAIT_MS, undefined);
  }

  private showCached(cached: CachedMap): void {
    if (this.shown || this.controller.signal.aborted || this.options.tokens() <= 0) return;
    // A resumed conversation that shows a map keeps it.
    if (visibleMap(this.options.messages())) return;
    const made = { map: cached.map, source: "cache" as const, builtAt: cached.builtAt };
    this.last = made;
    const key = repoMapKey(++this.builds);
    if (this.options.reminders.add({ key, text: cached.map.text })) this.shown = { ...made, key };
  }

  /**
   * A rebuild point (a compaction, a settings reload): indexes the project again in the
   * background and queues the new map for the next user message. A rebuild asked for during
   * a build runs after it.
   */
  rebuild(): void {
    this.queueBuild(false);
  }

  private queueBuild(first: boolean): void {
    if (this.controller.signal.aborted || this.options.tokens() <= 0) {
      if (first) this.endFirstBuild();
      return;
    }
    const previous = this.building ?? Promise.resolve();
    const run = previous.then(() => this.build(first));
    this.building = run;
    void run.finally(() => {
      if (this.building === run) this.building = null;
    });
  }

  private async build(first: boolean): Promise<void> {
    const clock = this.options.clock ?? Date.now;
    const started = clock();
    try {
      const listed = await listProjectFiles(this.options.projectRoot, this.options.env);
      const admitted = await admittedPaths(this.options.projectRoot, listed, this.options.files);
      const refused = refusedNotice(admitted.refused);
      if (refused) this.options.onProblem(refused);
      const paths = admitted.paths;
      // A large project's first build takes seconds: no message waits for it.
      if (paths.length >= (this.options.workerFrom ?? WORKER_FROM_PATHS)) this.endFirstBuild();
      const tokens = this.options.tokens();
      if (tokens <= 0) return;
      const focus = focusFrom(this.options.projectRoot, this.options.messages());
      const built = await this.builder.build({ paths, tokens, focus }, this.controller.signal);
      for (const p of built.update.problems) this.options.onProblem(p);
      const builtAt = clock();
      this.stats = {
        indexed: built.update.files,
        parsed: built.update.parsed,
        buildMs: builtAt - started,
      };
      this.failed = false;
      this.deliver({ map: built.map, source: "build", builtAt }, first);
      this.save(built.map, tokens, builtAt);
    } catch (error) {
      if (this.controller.signal.aborted) return;
      this.failed = true;
      this.options.onProblem(`the repo map could not be built: ${(error as Error).message}`);
    } finally {
      if (first) this.endFirstBuild();
    }
  }

  /** Keeps the map for the next session's first request (written off the session's thread). */
  private save(map: RenderedMap, tokens: number, builtAt: number): void {
    const file = this.options.mapFile;
    if (!file || map.text === "") return;
    const snapshot = mapSnapshotOf(this.options.projectRoot, tokens, builtAt, map);
    this.saving = this.saving.then(async () => {
      const problem = await saveMapSnapshot(file, snapshot);
      if (problem) this.options.onProblem(problem);
    });
  }

  /**
   * Queues the map as a reminder. A first build adds none when the conversation already
   * shows a map: the snapshot's (it stays until a rebuild point), or a resumed log's (that
   * one stays, and so does the cached prefix).
   */
  private deliver(made: Made & { readonly map: RenderedMap }, first: boolean): void {
    if (made.map.text === "") return;
    this.last = made;
    if (first && this.shown?.source === "cache") return;
    const visible = first ? visibleMap(this.options.messages()) : null;
    if (visible) {
      this.shown = { map: visible, key: null };
      return;
    }
    const key = repoMapKey(++this.builds);
    if (this.options.reminders.add({ key, text: made.map.text })) this.shown = { ...made, key };
  }

  /**
   * The conversation was rewound (after the session's reminders were reset). When the kept
   * messages still show a map, that one stays; otherwise the last map is queued again for the
   * next user message (a map known only from a resumed log is built again). No-op while a
   * build runs (it delivers when done) or when the map is off.
   */
  rewound(): void {
    if (this.controller.signal.aborted || this.building || this.options.tokens() <= 0) return;
    const visible = visibleMap(this.options.messages());
    if (visible) {
      this.shown = { map: visible, key: null };
      return;
    }
    if (!this.last) {
      if (this.shown) this.rebuild();
      return;
    }
    const key = repoMapKey(++this.builds);
    if (this.options.reminders.add({ key, text: this.last.map.text }))
      this.shown = { ...this.last, key };
  }

  /** Resolves once no build is running and its snapshot is written, with the status then. Never rejects. */
  async whenIdle(): Promise<RepoMapStatus> {
    await this.opened;
    if (this.gate.holding) await this.gate.started;
    while (this.building) await this.building.catch(() => {});
    await this.saving;
    return this.status();
  }

  /** Where the map stands: off, building, ready to join, in the conversation, or failed. */
  status(): RepoMapStatus {
    const shown = this.shown;
    return statusOf({
      on: this.options.tokens() > 0,
      building: this.building !== null,
      failed: this.failed,
      shown,
      delivered:
        shown !== null && (shown.key === null || this.options.reminders.wasDelivered(shown.key)),
      stats: this.stats,
    });
  }

  /**
   * Stops a running build (the session closes) and ends the worker; resolves once it
   * stopped and saved its progress, or after {@link CLOSE_WAIT_MS}.
   */
  async close(): Promise<void> {
    this.controller.abort(new Error("the session closed"));
    this.gate.cancel();
    this.endFirstBuild();
    await this.builder.close(CLOSE_WAIT_MS);
    await this.saving;
  }
}
