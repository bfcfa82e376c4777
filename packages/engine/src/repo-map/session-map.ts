import { type RenderedMap, RepoIndex, renderRepoMap } from "@z-engine/context";
import type { Message, SystemSection } from "@z-engine/protocol";
import { focusFrom } from "./focus.js";
import { listProjectFiles } from "./project-files.js";

/** Where the repo map stands, for `/context` and hosts. */
export interface RepoMapStatus {
  /** `off`: the setting is 0; `building`: indexing; `ready`: built, in the prompt from the next request; `active`: in the prompt. */
  readonly state: "off" | "building" | "ready" | "active" | "failed";
  /** The map's size in the prompt now (0 until it joins). */
  readonly tokens: number;
  readonly files: number;
  readonly definitions: number;
  /** Files indexed by the last build, and how many of them it had to parse. */
  readonly indexed: number;
  readonly parsed: number;
  /** How long the last build took to index, in ms. */
  readonly buildMs: number;
}

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

/** What a session's repo map needs from its session. */
export interface SessionRepoMapOptions {
  readonly projectRoot: string;
  /** The tag cache file in the data folder. */
  readonly cacheFile: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** `context.repo_map_tokens`, read at each build (0: off). */
  readonly tokens: () => number;
  /** The working set, for the focus (files read or written, the user's prompts). */
  readonly messages: () => readonly Message[];
  /** A problem worth a warning (a grammar that does not load, an unwritable cache). */
  readonly onProblem: (message: string) => void;
  readonly clock?: () => number;
}

/**
 * A session's repo map, off the request path. `start()` and `rebuild()` index the project
 * in the background (cut into slices that yield to the event loop); the first request after
 * an index is ready ranks it for the session's focus and puts the map in the system prompt,
 * where it then stays byte-identical until the next rebuild (after a compaction or a
 * reload). Requests never wait for it.
 */
export class SessionRepoMap {
  private readonly index: RepoIndex;
  private readonly controller = new AbortController();
  private building: Promise<void> | null = null;
  private pendingAdopt = false;
  private failed = false;
  private map: RenderedMap | null = null;
  private stats = { indexed: 0, parsed: 0, buildMs: 0 };
  private sections: {
    readonly base: readonly SystemSection[];
    readonly out: SystemSection[];
  } | null = null;

  constructor(private readonly options: SessionRepoMapOptions) {
    this.index = new RepoIndex({ root: options.projectRoot, cacheFile: options.cacheFile });
  }

  /** Starts the first build (a no-op when the map is off). */
  start(): void {
    this.releaseStart = () => {};
    this.rebuild();
    this.markStarted();
  }

  private releaseStart: (() => void) | null = null;
  private markStarted: () => void = () => {};
  private readonly started = new Promise<void>((resolve) => {
    this.markStarted = resolve;
  });

  /**
   * Starts the first build once {@link firstResponse} is called (the session's first model
   * response arrived, so its request went out) or after `fallbackMs` (a session that sits
   * idle), whichever comes first: loading grammars and parsing run on the main thread, and
   * would otherwise delay the first request (issue 18).
   */
  startAfterFirstResponse(fallbackMs = 1000): void {
    const timer = setTimeout(() => this.start(), fallbackMs);
    timer.unref();
    this.releaseStart = () => {
      clearTimeout(timer);
      this.start();
    };
  }

  /** The session's first model response arrived: a held first build starts (idempotent). */
  firstResponse(): void {
    this.releaseStart?.();
  }

  /**
   * Indexes the project again in the background; the new map replaces the old one at the
   * first request after it is ready. A rebuild asked for during a build runs after it.
   */
  rebuild(): void {
    if (this.controller.signal.aborted) return;
    if (this.options.tokens() <= 0) {
      this.pendingAdopt = this.map !== null;
      return;
    }
    const previous = this.building ?? Promise.resolve();
    const run = previous.then(() => this.build());
    this.building = run;
    void run.finally(() => {
      if (this.building === run) this.building = null;
    });
  }

  private async build(): Promise<void> {
    const clock = this.options.clock ?? Date.now;
    const started = clock();
    try {
      const paths = await listProjectFiles(this.options.projectRoot, this.options.env);
      const update = await this.index.update(paths, this.controller.signal);
      for (const p of update.problems) this.options.onProblem(p);
      this.stats = { indexed: update.files, parsed: update.parsed, buildMs: clock() - started };
      this.failed = false;
      this.pendingAdopt = true;
      // The map is ready; the cache file is written after, still off the request path.
      await new Promise((resolve) => setImmediate(resolve));
      const unsaved = this.index.save();
      if (unsaved) this.options.onProblem(unsaved);
    } catch (error) {
      // Closed mid-build: keep what was tagged, so the next session starts from there.
      if (this.controller.signal.aborted) {
        this.index.save();
        return;
      }
      this.failed = true;
      this.options.onProblem(`the repo map could not be built: ${(error as Error).message}`);
    }
  }

  /** Resolves once no build is running, with the status then. Never rejects. */
  async whenIdle(): Promise<RepoMapStatus> {
    if (this.releaseStart !== null) await this.started;
    while (this.building) await this.building.catch(() => {});
    return this.status();
  }

  /**
   * The system sections for a request: `base` with the repo map last. Adopts a build that
   * finished since the last call (ranked for the focus now); otherwise the same map as
   * before, so the prefix stays byte-identical. Never throws.
   */
  system(base: readonly SystemSection[]): readonly SystemSection[] {
    if (this.pendingAdopt) {
      this.pendingAdopt = false;
      this.adopt();
      this.sections = null;
    }
    if (this.sections?.base === base) return this.sections.out;
    const out = base.filter((s) => s.id !== "repoMap");
    if (this.map && this.map.text !== "")
      out.push({ id: "repoMap", text: this.map.text, cacheable: true });
    this.sections = { base, out };
    return out;
  }

  private adopt(): void {
    const tokens = this.options.tokens();
    if (tokens <= 0) {
      this.map = null;
      return;
    }
    const focus = focusFrom(this.options.projectRoot, this.options.messages());
    try {
      this.map = renderRepoMap(this.index.files, { tokens, focus });
    } catch (error) {
      this.options.onProblem(`the repo map could not be ranked: ${(error as Error).message}`);
    }
  }

  /** Where the map stands: off, building, ready to join, in the prompt, or failed. */
  status(): RepoMapStatus {
    const state =
      this.options.tokens() <= 0 && !this.map
        ? "off"
        : this.building
          ? "building"
          : this.pendingAdopt
            ? "ready"
            : this.map
              ? "active"
              : this.failed
                ? "failed"
                : "building";
    const shown = this.map ?? { tokens: 0, files: 0, definitions: 0 };
    return {
      state,
      tokens: shown.tokens,
      files: shown.files,
      definitions: shown.definitions,
      ...this.stats,
    };
  }

  /**
   * Stops a running build (the session closes); resolves once it stopped and saved its
   * progress, or after {@link CLOSE_WAIT_MS} (a grammar still loading cannot be stopped, and
   * a closing CLI should not wait for it).
   */
  async close(): Promise<void> {
    this.controller.abort(new Error("the session closed"));
    this.releaseStart?.(); // a held first build: nothing starts now
    let timer: NodeJS.Timeout | undefined;
    const cap = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, CLOSE_WAIT_MS);
      timer.unref();
    });
    await Promise.race([this.whenIdle(), cap]);
    clearTimeout(timer);
  }
}
