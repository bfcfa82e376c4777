import { type RenderedMap, type Reminder, RepoMapBuilder } from "@z-engine/context";
import type { Message, ProjectFileReader } from "@z-engine/protocol";
import { admittedPaths, refusedNotice } from "./admitted-paths.js";
import { focusFrom } from "./focus.js";
import { listProjectFiles } from "./project-files.js";
import { visibleMap } from "./visible-map.js";

/** Where the repo map stands, for `/context` and hosts. */
export interface RepoMapStatus {
  /** `off`: the setting is 0; `building`: indexing; `ready`: built, joins the next user message; `active`: in the conversation. */
  readonly state: "off" | "building" | "ready" | "active" | "failed";
  /** The size of the map the conversation shows, or is about to (0 before the first). */
  readonly tokens: number;
  readonly files: number;
  readonly definitions: number;
  /** Files indexed by the last build, and how many of them it had to parse. */
  readonly indexed: number;
  readonly parsed: number;
  /** How long the last build took to index, rank and render, in ms. */
  readonly buildMs: number;
}

/**
 * Longest the first build waits, after the session's first model response, for the next
 * request to go out (a long first tool call, or a first turn without tools).
 */
export const FIRST_ROUND_WAIT_MS = 2000;

/** Longest a closing session waits for its build to stop and save. */
export const CLOSE_WAIT_MS = 1000;

/** The status of a session without a repo map. */
export const OFF_MAP: RepoMapStatus = {
  state: "off",
  tokens: 0,
  files: 0,
  definitions: 0,
  indexed: 0,
  parsed: 0,
  buildMs: 0,
};

/** The reminder key of a session's nth map (a resumed session starts again at 1). */
export const repoMapKey = (n: number): string => `repo-map:${n}`;

/** What a session's repo map needs from its session. */
export interface SessionRepoMapOptions {
  readonly projectRoot: string;
  /** The tag cache file in the data folder. */
  readonly cacheFile: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /**
   * The project's door: each build passes the listed files through it (real paths inside the
   * project, regular files, the session's Read rules as they are at that build).
   */
  readonly files: ProjectFileReader;
  /** `context.repo_map_tokens`, read at each build (0: off). */
  readonly tokens: () => number;
  /** The working set, for the focus (files read or written, the user's prompts). */
  readonly messages: () => readonly Message[];
  /** Where a finished map goes: the session's reminders, which join the next user message. */
  readonly reminders: {
    add(reminder: Reminder): boolean;
    wasDelivered(key: string): boolean;
  };
  /** A problem worth a warning (a grammar that does not load, an unwritable cache). */
  readonly onProblem: (message: string) => void;
  readonly clock?: () => number;
  /** The worker script (context's by default; `null`: build on the session's thread). */
  readonly script?: URL | null;
  /** Fewer paths than this build on the session's thread (context's `WORKER_FROM_PATHS`). */
  readonly workerFrom?: number;
}

/**
 * A session's repo map, off the request path. Builds run in a worker thread (context's
 * {@link RepoMapBuilder}; a small project's on the session's thread, in slices); a finished map is queued as a reminder and joins the next user
 * message the session records (a prompt or a round's tool results), so the system prompt
 * and the tools never change for it and every request extends the previous one. A rebuild
 * (after a compaction or a reload) queues the new map the same way. Requests never wait.
 */
export class SessionRepoMap {
  private readonly builder: RepoMapBuilder;
  private readonly controller = new AbortController();
  private building: Promise<void> | null = null;
  private builds = 0;
  private failed = false;
  /** The map the conversation shows or is about to, and its reminder key (null: one found in the log). */
  private shown: { readonly map: Omit<RenderedMap, "text">; readonly key: string | null } | null =
    null;
  private stats = { indexed: 0, parsed: 0, buildMs: 0 };
  /** The last map a build made, to queue again when a rewind drops the message carrying it. */
  private last: RenderedMap | null = null;

  constructor(private readonly options: SessionRepoMapOptions) {
    this.builder = new RepoMapBuilder({
      root: options.projectRoot,
      cacheFile: options.cacheFile,
      onProblem: options.onProblem,
      ...(options.script !== undefined ? { script: options.script } : {}),
      ...(options.workerFrom !== undefined ? { workerFrom: options.workerFrom } : {}),
    });
  }

  /** Where builds run: `worker`, or `main` for a small project or without context's worker script. */
  get thread(): "worker" | "main" {
    return this.builder.thread;
  }

  /** Starts the first build (a no-op when the map is off). */
  start(): void {
    this.releaseStart = null;
    this.queueBuild(true);
    this.markStarted();
  }

  private releaseStart: (() => void) | null = null;
  /** The first response arrived: the build waits for the next request to go out. */
  private afterFirstResponse = false;
  private startTimer: NodeJS.Timeout | undefined;
  private markStarted: () => void = () => {};
  private readonly started = new Promise<void>((resolve) => {
    this.markStarted = resolve;
  });

  /**
   * Holds the first build until the session's first round is over: it starts when the
   * request after the first model response goes out ({@link requestSent}: the first round's
   * tool calls ran, and the model is working on their results), or `roundMs` after that
   * response when no request follows (a long first tool call, or a first turn that ended
   * without tools), or `fallbackMs` after the session opened when no response comes at all
   * (a session that sits idle). Starting the worker or loading grammars and parsing take CPU
   * that the first request, and the first round's tool calls (a test run), should have
   * (issue 18); a small project's map builds on the session's thread.
   */
  startAfterFirstResponse(fallbackMs = 1000, roundMs = FIRST_ROUND_WAIT_MS): void {
    this.roundMs = roundMs;
    this.arm(fallbackMs);
    this.releaseStart = () => {
      clearTimeout(this.startTimer);
      this.releaseStart = null;
      this.start();
    };
  }

  private roundMs = FIRST_ROUND_WAIT_MS;

  private arm(ms: number): void {
    clearTimeout(this.startTimer);
    this.startTimer = setTimeout(() => this.releaseStart?.(), ms);
    this.startTimer.unref();
  }

  /**
   * The session's first model response arrived (idempotent): a held first build now waits
   * for the next request ({@link requestSent}), at most the `roundMs` given to
   * {@link startAfterFirstResponse}.
   */
  firstResponse(): void {
    if (!this.releaseStart || this.afterFirstResponse) return;
    this.afterFirstResponse = true;
    this.arm(this.roundMs);
  }

  /**
   * A model request went out: after the first response, a held first build starts now
   * (the model works on the first round's results meanwhile). Before it, a no-op.
   */
  requestSent(): void {
    if (this.afterFirstResponse) this.releaseStart?.();
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
    if (this.controller.signal.aborted || this.options.tokens() <= 0) return;
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
      const tokens = this.options.tokens();
      if (tokens <= 0) return;
      const focus = focusFrom(this.options.projectRoot, this.options.messages());
      const built = await this.builder.build({ paths, tokens, focus }, this.controller.signal);
      for (const p of built.update.problems) this.options.onProblem(p);
      this.stats = {
        indexed: built.update.files,
        parsed: built.update.parsed,
        buildMs: clock() - started,
      };
      this.failed = false;
      this.deliver(built.map, first);
    } catch (error) {
      if (this.controller.signal.aborted) return;
      this.failed = true;
      this.options.onProblem(`the repo map could not be built: ${(error as Error).message}`);
    }
  }

  /**
   * Queues the map as a reminder. A first build in a resumed session whose conversation
   * already shows a map adds none: the log's map stays, and so does the cached prefix.
   */
  private deliver(map: RenderedMap, first: boolean): void {
    if (map.text === "") return;
    this.last = map;
    const visible = first ? visibleMap(this.options.messages()) : null;
    if (visible) {
      this.shown = { map: visible, key: null };
      return;
    }
    const key = repoMapKey(++this.builds);
    if (this.options.reminders.add({ key, text: map.text })) this.shown = { map, key };
  }

  /**
   * The conversation was rewound (after the session's reminders were reset). When the kept
   * messages still show a map, that one stays; otherwise the last built map is queued again
   * for the next user message (a map known only from a resumed log is built again). No-op
   * while a build runs (it delivers when done) or when the map is off.
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
    if (this.options.reminders.add({ key, text: this.last.text }))
      this.shown = { map: this.last, key };
  }

  /** Resolves once no build is running, with the status then. Never rejects. */
  async whenIdle(): Promise<RepoMapStatus> {
    if (this.releaseStart !== null) await this.started;
    while (this.building) await this.building.catch(() => {});
    return this.status();
  }

  /** Where the map stands: off, building, ready to join, in the conversation, or failed. */
  status(): RepoMapStatus {
    const shown = this.shown;
    const delivered =
      shown !== null && (shown.key === null || this.options.reminders.wasDelivered(shown.key));
    const state =
      this.options.tokens() <= 0 && !shown
        ? "off"
        : this.building
          ? "building"
          : shown && !delivered
            ? "ready"
            : shown
              ? "active"
              : this.failed
                ? "failed"
                : "building";
    const size = shown?.map ?? { tokens: 0, files: 0, definitions: 0 };
    return {
      state,
      tokens: size.tokens,
      files: size.files,
      definitions: size.definitions,
      ...this.stats,
    };
  }

  /**
   * Stops a running build (the session closes) and ends the worker; resolves once it
   * stopped and saved its progress, or after {@link CLOSE_WAIT_MS}.
   */
  async close(): Promise<void> {
    this.controller.abort(new Error("the session closed"));
    this.releaseStart?.(); // a held first build: nothing starts now
    await this.builder.close(CLOSE_WAIT_MS);
  }
}
