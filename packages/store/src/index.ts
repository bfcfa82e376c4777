/**
 * @z-engine/store: the engine's durability. Session folders, the append-only log with
 * torn-tail repair, the reader, replay, meta.json, heal and the v1 import; implements
 * protocol's `ArtifactSink`. Everything exported here is public API; everything else is
 * internal.
 */

// The store contract (what an implementer writes; see each member's JSDoc)
export type {
  AgentTranscript,
  CreateSessionOptions,
  OpenedSession,
  OpenReport,
  Session,
  SessionStore,
  SessionSummary,
  StoreNotice,
} from "./session-store.js";
/** The records `SessionStore.create` must write, in order (`session`, then one per option given). Never throws. */
export { sessionStartRecords } from "./session-start-records.js";

// The file store
/**
 * Sessions as folders under `<dataDir>/sessions/`. `create`, `open` (repair, replay, heal,
 * v1 conversion), `list` (newest first, from meta.json), `delete`. Methods reject with
 * `StoreError` on operational failures only; damaged content is reported, never thrown.
 */
export { FileSessionStore } from "./file-session-store.js";
export type {
  FileOpenedSession,
  FileOpenReport,
  FileSessionStoreOptions,
} from "./file-session-store.js";
/** The handle `FileSessionStore` returns: one open session folder holding its lock (see `Session`). */
export type { FileAgentTranscript, FileSession } from "./file-session.js";

// A store of one's own over a few functions
/**
 * `createSessionStore(backend)`: a whole `SessionStore` from a `RecordBackend` (append text to
 * a log, read it back, list, remove). `parseLog` parses a log's text as the file reader does.
 */
export { createSessionStore } from "./record-store.js";
export { parseLog } from "./record-backend.js";
export type { LogName, ParsedLog, RecordBackend } from "./record-backend.js";
/** An `ArtifactSink` in memory, with a size limit. Never rejects. */
export { MemoryArtifactSink } from "./memory-artifacts.js";

// Records
/**
 * The zod schema of one log line, tagged by `kind`, each with `v: 2` and `ts`. The full
 * check; the reader uses a cheaper structural one (`checkRecord`).
 */
export { LogRecord, STORE_FORMAT_VERSION, logRecord } from "./records.js";
export type { LogRecordFields, LogRecordKind, LogRecordOf } from "./records.js";
/** Checks a parsed line: `ok`, `unknown` (kept and skipped) or `damaged` with a reason. Never throws. */
export { checkRecord } from "./record-check.js";
export type { RecordCheck } from "./record-check.js";

// Reading and appending
/** Reads a log without changing it, reporting damaged lines, unknown kinds and a torn tail. */
export { readLog } from "./log-reader.js";
export type {
  LogDamage,
  ReadLogOptions,
  ReadLogResult,
  TornTail,
  UnknownRecord,
} from "./log-reader.js";
/**
 * One log file's writer: each append is one line written synchronously, in call order;
 * fsync only on `sync()` and `close()`. `openLogForAppend` cuts a torn tail first.
 */
export { AppendLog, openLogForAppend } from "./log-writer.js";
export type { OpenedLog } from "./log-writer.js";

// Replay and resume
/** Folds records into the transcript, the working set, the session state and total cost. */
export { ReplayFold, replay } from "./replay.js";
export type { LastTurn, Replay, ReplayState, ResumeReport, TranscriptRecord } from "./replay.js";
/**
 * @deprecated The old name of {@link ReplayState} (issue 39): it clashed with the engine's
 * own `SessionState`, the live state of an open session.
 */
export type { ReplayState as SessionState } from "./replay.js";
/** The model's working set fold (compactions, cleared results, rewinds, task views). */
export { WorkingSetFold } from "./working-set-fold.js";
export type { ConversationRecord, PendingToolCall } from "./working-set-fold.js";
/** The records that close what a resume report found open. Never throws. */
export { closingRecords, INTERRUPTED_TOOL_RESULT } from "./resume.js";
export type { ClosingOptions } from "./resume.js";

// meta.json
/**
 * meta.json's schema (built on first use: a stand-in, as protocol's `lazily` makes, that is not
 * `===` the zod schema), its rebuild from a replay, and its atomic read and write.
 */
export { metaFromReplay, readMeta, SessionMeta, writeMeta } from "./meta.js";

// Artifacts
/** `ArtifactSink` over a session's `artifacts/` folder, with a size limit. */
export { DEFAULT_ARTIFACT_MAX_BYTES, FileArtifactSink } from "./artifacts.js";

// Locks
/** The per-session writer lock: a live owner's pid is reported, a dead one's lock taken over. */
export { acquireLock, isProcessAlive, readLockOwner, SessionLock } from "./lock.js";
export type { LockOwner } from "./lock.js";

// v1 import
/** Parses a v1 chat file and converts it to v2 records. Never throws. */
export { legacyRecords, parseLegacyChat } from "./legacy.js";
export type { LegacyChat, LegacyMessage } from "./legacy.js";

// Errors
/** Operational failures, with a string `code`; `SessionLockedError` names the owner's pid. */
export { SessionLockedError, StoreError } from "./errors.js";
export type { StoreErrorCode } from "./errors.js";
