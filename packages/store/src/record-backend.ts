import type { ArtifactSink } from "@z-engine/protocol";
import { type LogDamage, LineFolder, type UnknownRecord } from "./log-reader.js";
import type { LogRecord } from "./records.js";

/** Which log: a session's own, or one of its subagents'. */
export interface LogName {
  readonly sessionId: string;
  /** Set for a subagent's transcript. */
  readonly agentId?: string;
}

/**
 * The smallest thing a host writes to keep sessions somewhere of its own (files in its
 * folder, a database row per log, a remote service): append text to a log and read it back.
 * `createSessionStore` adds the rest of `SessionStore`: serialising and checking records,
 * parsing with damage reports, replay, the working set, one writer per session in this
 * process, the chat list.
 */
export interface RecordBackend {
  /**
   * Stores `text` (whole JSON lines, each ending in a newline) at the end of the log `name`,
   * creating it. Resolve once stored as durably as the backend promises; reject when it is
   * not. Calls for one log never overlap: the next waits for this one.
   */
  append(name: LogName, text: string): Promise<void>;
  /** The log's whole text, or `undefined` when there is no such log. */
  read(name: LogName): Promise<string | undefined>;
  /** The ids of every session that has a log (subagent logs are not sessions). */
  sessions(): Promise<readonly string[]>;
  /** Removes a session's logs (its subagents' included) and artifacts. */
  remove(sessionId: string): Promise<void>;
  /** Where a session's artifacts go (default: in memory, lost when the process ends). */
  artifacts?(sessionId: string): ArtifactSink;
}

/** A log's text parsed: intact records, damaged lines, unknown kinds, a torn last line. */
export interface ParsedLog {
  readonly records: LogRecord[];
  readonly damage: LogDamage[];
  readonly unknown: UnknownRecord[];
  /** Bytes after the last newline: a record whose append never finished. */
  readonly tornBytes: number;
}

/** Parses a log's text as the file reader does (see `readLog`). Never throws. */
export function parseLog(text: string): ParsedLog {
  const folder = new LineFolder();
  const end = text.lastIndexOf("\n") + 1;
  folder.fold(text.slice(0, end));
  const { records, damage, unknown } = folder;
  return { records, damage, unknown, tornBytes: Buffer.byteLength(text.slice(end)) };
}
