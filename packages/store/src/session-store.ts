import type { ArtifactSink, Effort, Message, PermissionMode, SessionId } from "@z-engine/protocol";
import type { LogDamage, UnknownRecord } from "./log-reader.js";
import type { SessionMeta } from "./meta.js";
import type { LogRecord } from "./records.js";
import type { Replay, TranscriptRecord } from "./replay.js";

/** What a new session starts with. */
export interface CreateSessionOptions {
  /** The folder the session runs in. */
  readonly projectRoot: string;
  /**
   * The new session's id, when the host names it (Claude Code's `--session-id` UUID); else a
   * new `newSessionId()`. `create` rejects with `invalidSessionId` for an unsafe one and
   * `exists` when a session already has it.
   */
  readonly id?: string;
  readonly title?: string;
  readonly mode?: PermissionMode;
  readonly model?: string;
  readonly effort?: Effort;
}

/** A subagent's transcript, read back. */
export interface AgentTranscript {
  /** Its records, in the order they were appended. */
  readonly records: readonly LogRecord[];
  /** The records folded (its working set is what the subagent resumes from). */
  readonly replay: Replay;
}

/**
 * One session open for writing; it holds the session's lock until `close()`. Every method
 * but `append`/`appendAgent`/`sync`/`close` only reads.
 */
export interface Session {
  readonly id: SessionId;
  /** Where long outputs, check logs and images go. */
  readonly artifacts: ArtifactSink;
  /**
   * A file a hook may read the log from (hooks receive it as `transcript_path`); undefined
   * when the store keeps no such file.
   */
  readonly transcriptPath?: string;
  /**
   * The file a subagent's transcript is kept in (SubagentStop hooks receive it as
   * `agent_transcript_path`); absent, or undefined, when the store keeps no such file.
   * Throws `invalidRecord` for an unsafe agent id.
   */
  agentTranscriptPath?(agentId: string): string | undefined;
  /**
   * Appends a record. Resolves once the record is stored as durably as the store promises
   * (the file store: handed to the OS, safe from a process crash), so the caller may then
   * emit the matching event; records land in call order even when appends are not awaited.
   * Rejects with `StoreError` (`invalidRecord` for a record `checkRecord` refuses,
   * `appendFailed`, `closed`); a rejected record is not in the log and not folded.
   * Does not fsync (see `sync`).
   */
  append(record: LogRecord): Promise<void>;
  /** Appends to a subagent's own transcript, in call order. Rejects like `append` (`invalidRecord` for an unsafe agent id). */
  appendAgent(agentId: string, record: LogRecord): Promise<void>;
  /** Reads and replays a subagent's transcript. Rejects with `notFound` when it has none. */
  readAgent(agentId: string): Promise<AgentTranscript>;
  /**
   * The model's working set now: every appended record folded in. Cheap: the fold is kept
   * as records are appended, and the same array is returned until the next append changes
   * it. The array and its messages must not be mutated (copy before changing).
   */
  workingSet(): readonly Message[];
  /**
   * The whole session folded so far (copies). After a fast resume (`Replay.earlierHistory`)
   * its `transcript` starts at the resume point; `transcript()` reads the rest.
   */
  snapshot(): Replay;
  /** The whole display transcript, earlier history read on demand. Rejects with `io`. */
  transcript(): Promise<readonly TranscriptRecord[]>;
  /** Makes every append durable (fsync, for the file store). The engine calls it at turn end. Rejects with `io`. */
  sync(): Promise<void>;
  /** Syncs and releases the lock; later appends reject with `closed`. Safe to call twice. */
  close(): Promise<void>;
}

/** Something the store repaired or converted while opening, for the engine to tell the user. */
export interface StoreNotice {
  readonly level: "info" | "warning";
  /** A stable code (`log.tornTail`, `log.legacyImport`, ...). */
  readonly code: string;
  readonly message: string;
}

/** What opening a session found and repaired (a store adds its own details). */
export interface OpenReport {
  /** Damaged records skipped (they stay in the log). */
  readonly damage: readonly LogDamage[];
  /** Records of unknown kinds skipped (they stay in the log). */
  readonly unknown: readonly UnknownRecord[];
  /** Repairs and conversions to tell the user of (the engine records each as a notice). */
  readonly notices: readonly StoreNotice[];
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
 * Where sessions live. `FileSessionStore` keeps them in folders, `createSessionStore` turns
 * any place that can append and read records into one, and a host may write its own
 * (`runStoreConformance` in `@z-engine/testkit` checks it).
 *
 * Every method rejects with `StoreError` on an operational failure (`notFound`, `locked`,
 * `invalidSessionId`, `io`) and never for damaged content, which is reported instead. The
 * log is the truth: replaying what `append` stored gives what the live session folded.
 */
export interface SessionStore {
  /**
   * Creates a session with a new id (protocol's `newSessionId()`) and opens it for writing.
   * Before it resolves, the log holds, in this order: a `session` record (`sessionId`,
   * `projectRoot`), then a `title`, `mode`, `model` and `effort` record for each option
   * given, and nothing else; so `open(id).replay.state` names the project and those values.
   */
  create(options: CreateSessionOptions): Promise<Session>;
  /**
   * Opens a session for writing: repairs what a crash left, replays the log and returns the
   * replay at open. Rejects with `notFound` for an unknown id, `locked` while the session is
   * open (in this process or, where the store can tell, another), `invalidSessionId`.
   */
  open(id: string): Promise<OpenedSession>;
  /** Every session, newest first (by last activity, `updatedAt`). */
  list(): Promise<SessionSummary[]>;
  /**
   * Deletes a session and everything it holds. Rejects with `notFound` for an unknown id and
   * `locked` while it is open.
   */
  delete(id: string): Promise<void>;
}
