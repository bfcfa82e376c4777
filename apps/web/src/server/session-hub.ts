import type { Engine, SessionHandle, SlashCommandInfo } from "@z-engine/engine";
import type { EngineCommand, EventEnvelope } from "@z-engine/protocol";
import { expandFolder, folderProblem } from "./folders.js";
import { HttpError } from "./http-io.js";
import { type InboxItem, PendingItems } from "./inbox.js";

/**
 * One event as the browser gets it: `cursor` orders the stored history and the live events of
 * this server's session together (the engine's `seq` restarts at each open), so a client that
 * reconnects asks for what follows the last cursor it applied and gets nothing twice.
 */
export interface StreamItem {
  readonly cursor: number;
  /** True for events told from the stored log (before this server opened the session). */
  readonly replayed: boolean;
  readonly envelope: EventEnvelope;
}

/** A session list entry for the page. */
export interface SessionEntry {
  readonly id: string;
  readonly title: string | null;
  readonly projectRoot: string | null;
  readonly updatedAt: number;
  readonly turnCount: number;
  readonly costUsd: number;
  readonly lastTurn: string | null;
  /** Open in this server. */
  readonly open: boolean;
}

/** A slash command the composer completes: an entry of the engine's command catalog. */
export type SlashCommand = SlashCommandInfo;

/** What changed for every page at once: the inbox, or the session list. */
export type HubChange = { readonly type: "inbox" } | { readonly type: "sessions" };

type Listener = (item: StreamItem) => void;

/** Events after which the session list reads differently (title, outcome, cost, time). */
const LIST_EVENTS = new Set(["titleChanged", "turnFinished", "turnStarted"]);

/** One session this server opened: its handle, every event it saw (for late subscribers), what waits. */
/** What the list shows of a session, as its events tell it (meta.json is written a moment later). */
interface LiveSummary {
  title?: string;
  lastTurn?: string;
  costUsd?: number;
  turnCount: number;
  updatedAt?: number;
}

function summarise(live: LiveSummary, envelope: EventEnvelope): void {
  const e = envelope.event;
  if (e.type === "titleChanged") live.title = e.title;
  else if (e.type === "turnFinished") {
    live.lastTurn = e.outcome;
    live.turnCount++;
  } else if (e.type === "costUpdated") live.costUsd = e.sessionUsage.costUsd;
  else return;
  live.updatedAt = envelope.ts;
}

class OpenSession {
  readonly items: StreamItem[] = [];
  readonly live: LiveSummary = { turnCount: 0 };
  private readonly listeners = new Set<Listener>();
  handle: SessionHandle | undefined;
  pending: PendingItems | undefined;

  constructor(private readonly changed: (change: HubChange) => void) {}

  push(envelope: EventEnvelope, replayed: boolean): void {
    const item = { cursor: this.items.length, replayed, envelope };
    this.items.push(item);
    this.pending ??= new PendingItems(envelope.sessionId);
    summarise(this.live, envelope);
    if (this.pending.apply(envelope)) this.changed({ type: "inbox" });
    if (!replayed && LIST_EVENTS.has(envelope.event.type)) this.changed({ type: "sessions" });
    for (const listener of this.listeners) listener(item);
  }

  /** Resolves with the first new envelope that `match` accepts, or undefined after `timeoutMs`. */
  next(
    match: (e: EventEnvelope) => boolean,
    timeoutMs: number,
  ): Promise<EventEnvelope | undefined> {
    return new Promise((resolve) => {
      const done = (value: EventEnvelope | undefined) => {
        clearTimeout(timer);
        this.listeners.delete(listener);
        resolve(value);
      };
      const listener: Listener = (item) => {
        if (match(item.envelope)) done(item.envelope);
      };
      const timer = setTimeout(() => done(undefined), timeoutMs);
      this.listeners.add(listener);
    });
  }

  /** Delivers the items after `after`, then every new one, until the returned stop is called. */
  subscribe(after: number, listener: Listener): () => void {
    for (const item of this.items.slice(Math.max(0, after + 1))) listener(item);
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** The sessions a web server opened, over one engine. */
export class SessionHub {
  private readonly open = new Map<string, Promise<OpenSession>>();
  private readonly watchers = new Set<(change: HubChange) => void>();
  private readonly changed = (change: HubChange) => {
    for (const watcher of this.watchers) watcher(change);
  };

  constructor(
    private readonly engine: Promise<Engine>,
    private readonly dataDir: Promise<string>,
    /** The folder relative paths are read against (the server's working directory). */
    readonly cwd: string,
  ) {}

  /** Calls `watcher` on each change every page should see; returns the stop. */
  watch(watcher: (change: HubChange) => void): () => void {
    this.watchers.add(watcher);
    return () => this.watchers.delete(watcher);
  }

  /** Every stored session that has a turn (or is open here), newest first. */
  async list(): Promise<SessionEntry[]> {
    const stored = await (await this.engine).listSessions();
    const live = new Map<string, LiveSummary>();
    for (const [id, opening] of this.open) {
      const session = await opening.catch(() => undefined);
      if (session) live.set(id, session.live);
    }
    return stored
      .filter((s) => s.turnCount > 0 || this.open.has(s.id))
      .map((s) => {
        const now = live.get(s.id);
        return {
          id: s.id,
          title: now?.title ?? s.title,
          projectRoot: s.projectRoot,
          updatedAt: Math.max(now?.updatedAt ?? 0, s.updatedAt),
          turnCount: Math.max(now?.turnCount ?? 0, s.turnCount),
          costUsd: Math.max(now?.costUsd ?? 0, s.costUsd),
          lastTurn: now?.lastTurn ?? s.lastTurn,
          open: this.open.has(s.id),
        };
      })
      .sort((a, b) => b.updatedAt - a.updatedAt);
  }

  /**
   * Creates a session in `folder` (`~` and paths relative to the server's folder allowed).
   * Rejects with an HttpError that says in words why a folder cannot be used.
   */
  async create(folder: string): Promise<string> {
    const path = expandFolder(folder, this.cwd);
    const problem = await folderProblem(path);
    if (problem) throw new HttpError("badRequest", problem);
    const session = new OpenSession(this.changed);
    let handle: SessionHandle;
    try {
      handle = await (await this.engine).createSession(path, {
        onEvent: (e) => session.push(e, false),
      });
    } catch (error) {
      throw new HttpError("badRequest", `cannot start a session in ${path}: ${messageOf(error)}`);
    }
    session.handle = handle;
    this.open.set(handle.id, Promise.resolve(session));
    this.changed({ type: "sessions" });
    return handle.id;
  }

  /** Opens (resumes) a stored session once: its history first, then its live events. */
  resume(id: string): Promise<OpenSession> {
    const existing = this.open.get(id);
    if (existing) return existing;
    const opening = this.openStored(id);
    this.open.set(id, opening);
    opening.catch(() => this.open.delete(id));
    return opening;
  }

  private async openStored(id: string): Promise<OpenSession> {
    const session = new OpenSession(this.changed);
    try {
      // Loaded on first use: the server starts before the engine's modules are in.
      const { readSessionHistory } = await import("@z-engine/engine");
      const history = await readSessionHistory(await this.dataDir, id);
      for (const envelope of history.events) session.push(envelope, true);
      session.handle = await (await this.engine).openSession(id, {
        onEvent: (e) => session.push(e, false),
      });
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === "notFound" || code === "invalidSessionId") {
        throw new HttpError("notFound", `no session ${id}`);
      }
      throw new HttpError("conflict", `cannot open session ${id}: ${messageOf(error)}`);
    }
    return session;
  }

  /** Subscribes to a session's stream after `after` (-1: from the start); opens it if needed. */
  async subscribe(id: string, after: number, listener: Listener): Promise<() => void> {
    const session = await this.resume(id);
    return session.subscribe(after, listener);
  }

  /** Sends a command to an open session. */
  async send(id: string, command: EngineCommand): Promise<string | undefined> {
    return (await this.handle(id)).send(command);
  }

  /**
   * The slash commands of a session: the engine's catalog (`SessionHandle.commands()`: engine
   * built-ins, custom commands, prompt built-ins, MCP prompts), read anew on each call.
   */
  async commands(id: string): Promise<SlashCommand[]> {
    return (await this.handle(id)).commands();
  }

  /**
   * Trusts the session's folder (the `trustWorkspace` command) and resolves once the engine
   * says it applied (its `trust.*` notice), at most after 10 s; with the notice's text.
   */
  async trust(id: string): Promise<string | undefined> {
    const session = await this.resume(id);
    const applied = session.next(
      (e) => e.event.type === "notice" && e.event.code.startsWith("trust"),
      10_000,
    );
    session.handle?.send({ type: "trustWorkspace", trusted: true });
    const notice = await applied;
    return notice?.event.type === "notice" ? notice.event.message : undefined;
  }

  /** The handle of a session, opening a stored one first; rejects with an HttpError when it cannot be opened. */
  async handle(id: string): Promise<SessionHandle> {
    const session = await this.resume(id);
    if (!session.handle) throw new HttpError("notOpen", `session ${id} is not open here`);
    return session.handle;
  }

  /** What waits on the user in every session open here, oldest first. */
  async inbox(): Promise<InboxItem[]> {
    const sessions = await Promise.all(
      [...this.open.values()].map((s) => s.catch(() => undefined)),
    );
    return sessions.flatMap((s) => s?.pending?.list() ?? []).sort((a, b) => a.at - b.at);
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
