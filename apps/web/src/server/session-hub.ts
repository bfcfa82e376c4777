import type { Engine, SessionHandle, SlashCommandInfo } from "@z-engine/engine";
import type { EngineCommand, EventEnvelope } from "@z-engine/protocol";

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

type Listener = (item: StreamItem) => void;

/** One session this server opened: its handle and every event it saw, for late subscribers. */
class OpenSession {
  readonly items: StreamItem[] = [];
  private readonly listeners = new Set<Listener>();
  handle: SessionHandle | undefined;

  push(envelope: EventEnvelope, replayed: boolean): void {
    const item = { cursor: this.items.length, replayed, envelope };
    this.items.push(item);
    for (const listener of this.listeners) listener(item);
  }

  /** Delivers the items after `after`, then every new one, until the returned stop is called. */
  subscribe(after: number, listener: Listener): () => void {
    for (const item of this.items.slice(Math.max(0, after + 1))) listener(item);
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** An error the HTTP layer turns into a status. */
export class HubError extends Error {
  constructor(
    readonly code: "notFound" | "notOpen" | "badRequest" | "conflict",
    message: string,
  ) {
    super(message);
    this.name = "HubError";
  }
}

/** The sessions a web server opened, over one engine. */
export class SessionHub {
  private readonly open = new Map<string, Promise<OpenSession>>();

  constructor(
    private readonly engine: Promise<Engine>,
    private readonly dataDir: Promise<string>,
  ) {}

  /** Every stored session, newest first, marked when open here. */
  async list(): Promise<SessionEntry[]> {
    const stored = await (await this.engine).listSessions();
    return stored.map((s) => ({
      id: s.id,
      title: s.title,
      projectRoot: s.projectRoot,
      updatedAt: s.updatedAt,
      turnCount: s.turnCount,
      costUsd: s.costUsd,
      lastTurn: s.lastTurn,
      open: this.open.has(s.id),
    }));
  }

  /** Creates a session in `folder`. Rejects with a HubError when the folder does not exist. */
  async create(folder: string): Promise<string> {
    const session = new OpenSession();
    let handle: SessionHandle;
    try {
      handle = await (await this.engine).createSession(folder, {
        onEvent: (e) => session.push(e, false),
      });
    } catch (error) {
      throw new HubError("badRequest", `cannot start a session in ${folder}: ${messageOf(error)}`);
    }
    session.handle = handle;
    this.open.set(handle.id, Promise.resolve(session));
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
    const session = new OpenSession();
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
        throw new HubError("notFound", `no session ${id}`);
      }
      throw new HubError("conflict", `cannot open session ${id}: ${messageOf(error)}`);
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
    const session = await this.openOnly(id);
    return session.handle?.send(command);
  }

  /**
   * The slash commands of a session: the engine's catalog (`SessionHandle.commands()`: engine
   * built-ins, custom commands, prompt built-ins, MCP prompts), read anew on each call.
   */
  async commands(id: string): Promise<SlashCommand[]> {
    const session = await this.openOnly(id);
    return (await session.handle?.commands()) ?? [];
  }

  private async openOnly(id: string): Promise<OpenSession> {
    const session = await this.open.get(id);
    if (!session?.handle) throw new HubError("notOpen", `session ${id} is not open here`);
    return session;
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
