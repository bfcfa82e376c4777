import type { ArtifactSink, Effort, PermissionMode, SessionId } from "@z-engine/protocol";
import type { LogDamage, ReadLogResult, TornTail, UnknownRecord } from "./log-reader.js";
import type { SessionMeta } from "./meta.js";
import type { LogRecord } from "./records.js";
import type { Replay } from "./replay.js";

/** What a new session starts with. */
export interface CreateSessionOptions {
  /** The folder the session runs in. */
  readonly projectRoot: string;
  readonly title?: string;
  readonly mode?: PermissionMode;
  readonly model?: string;
  readonly effort?: Effort;
}

/** One session open for writing; it holds the session's lock until `close()`. */
export interface Session {
  readonly id: SessionId;
  /** The session folder. */
  readonly dir: string;
  /** The path of log.jsonl (hooks receive it as `transcript_path`). */
  readonly logPath: string;
  /** Where long outputs, check logs and images go. */
  readonly artifacts: ArtifactSink;
  /**
   * Appends a record. Resolves once its line was handed to the OS, so the caller may then
   * emit the matching event; lines land in call order even when appends are not awaited.
   * Rejects with `StoreError` (`invalidRecord`, `appendFailed`, `closed`); a rejected record
   * is not in the log. Does not fsync (see `sync`).
   */
  append(record: LogRecord): Promise<void>;
  /** Appends to a subagent's transcript `agents/<agentId>.jsonl`, in call order. Rejects like `append`. */
  appendAgent(agentId: string, record: LogRecord): Promise<void>;
  /** Reads and replays a subagent's transcript. Rejects with `notFound` when it has none. */
  readAgent(agentId: string): Promise<{ read: ReadLogResult; replay: Replay }>;
  /** The session folded so far, including every record appended since open (copies). */
  snapshot(): Replay;
  /** fsyncs the logs and writes meta.json. The engine calls it at turn end. Rejects with `io`. */
  sync(): Promise<void>;
  /** Syncs, writes meta.json and releases the lock. Safe to call twice. */
  close(): Promise<void>;
}

/** What opening a session found and repaired. */
export interface OpenReport {
  /** Damaged lines skipped (they stay on disk). */
  readonly damage: readonly LogDamage[];
  /** Records of unknown kinds skipped (they stay on disk). */
  readonly unknown: readonly UnknownRecord[];
  /** The half-written last line cut off the log, if any. */
  readonly tornTail: TornTail | null;
  /** Why meta.json was rebuilt from the log, or null when it was current. */
  readonly metaRebuilt: "missing" | "damaged" | "stale" | null;
  /** Set when this open converted a v1 chat file; lines of it that could not be converted. */
  readonly legacyImport: { readonly file: string; readonly damage: readonly LogDamage[] } | null;
}

/** An opened session: the handle, its replay at open, and what was repaired. */
export interface OpenedSession {
  readonly session: Session;
  /** The replay at open; `replay.resume` lists what the engine must close. */
  readonly replay: Replay;
  readonly report: OpenReport;
}

/** A chat list entry: the session's meta, and where it lives. */
export type SessionSummary = SessionMeta & {
  /** `v1File`: a v1 chat not yet converted (it converts on first open). */
  readonly source: "folder" | "v1File";
};

/**
 * Where sessions live. `FileSessionStore` keeps them in folders; a host may bring its own.
 * Every method rejects with `StoreError` on an operational failure (`notFound`, `locked`
 * with the owner's pid, `invalidSessionId`, `io`) and never for damaged content, which is
 * reported instead.
 */
export interface SessionStore {
  /** Creates a session and opens it for writing. */
  create(options: CreateSessionOptions): Promise<Session>;
  /** Opens a session for writing: repairs, replays and heals it (a v1 chat is converted first). */
  open(id: string): Promise<OpenedSession>;
  /** Every session, newest first (by last activity). */
  list(): Promise<SessionSummary[]>;
  /** Deletes a session folder (and its v1 original). Rejects with `locked` while it is open. */
  delete(id: string): Promise<void>;
}
