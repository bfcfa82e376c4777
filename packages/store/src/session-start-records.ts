import type { SessionId } from "@z-engine/protocol";
import { type LogRecord, logRecord } from "./records.js";
import type { CreateSessionOptions } from "./session-store.js";

/**
 * The records `SessionStore.create` must write, in order: `session`, then `title`, `mode`,
 * `model` and `effort` for each option given. Never throws.
 */
export function sessionStartRecords(id: SessionId, options: CreateSessionOptions): LogRecord[] {
  const records: LogRecord[] = [
    logRecord("session", { sessionId: id, projectRoot: options.projectRoot }),
  ];
  if (options.title !== undefined) records.push(logRecord("title", { title: options.title }));
  if (options.mode !== undefined) records.push(logRecord("mode", { mode: options.mode }));
  if (options.model !== undefined) records.push(logRecord("model", { model: options.model }));
  if (options.effort !== undefined) records.push(logRecord("effort", { effort: options.effort }));
  return records;
}
