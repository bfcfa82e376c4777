import { mkdir } from "node:fs/promises";
import { PRIVATE_DIR } from "./private.js";
import { join } from "node:path";
import type { SessionId } from "@z-engine/protocol";
import type { FileArtifactSink } from "./artifacts.js";
import { StoreError } from "./errors.js";
import type { SessionLock } from "./lock.js";
import { readLog } from "./log-reader.js";
import { type AppendLog, openLogForAppend } from "./log-writer.js";
import { metaFromReplay, writeMeta } from "./meta.js";
import type { LogRecord } from "./records.js";
import { ReplayFold, replay } from "./replay.js";
import { readRecordsSync } from "./resume-scan.js";
import type { AgentTranscript, Session } from "./session-store.js";
import type { ReadLogResult } from "./log-reader.js";

/** Agent ids become file names: letters, digits, `_`, `-` and `.` only. */
const SAFE_AGENT_ID = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,199}$/;

/** The parts a session handle is made of (the store builds them). */
export interface FileSessionParts {
  readonly id: SessionId;
  readonly dir: string;
  readonly log: AppendLog;
  readonly fold: ReplayFold;
  readonly lock: SessionLock;
  readonly artifacts: FileArtifactSink;
  /** Where the log's last resume point starts, when known (null: none). */
  readonly resumeAt: number | null;
}

/** A subagent transcript read from its file: what `readAgent` returns, with the file read. */
export interface FileAgentTranscript extends AgentTranscript {
  /** The read itself: damaged lines, unknown kinds, a torn tail. */
  readonly read: ReadLogResult;
}

/** A session folder open for writing (see `Session`); adds the folder and the log's path. */
export class FileSession implements Session {
  readonly id: SessionId;
  /** The session folder. */
  readonly dir: string;
  /** The path of log.jsonl. */
  readonly logPath: string;
  /** The same as `logPath`: hooks read the log there. */
  readonly transcriptPath: string;
  readonly artifacts: FileArtifactSink;
  private readonly log: AppendLog;
  private fold: ReplayFold;
  private resumeAt: number | null;
  private readonly lock: SessionLock;
  private readonly agentLogs = new Map<string, Promise<AppendLog>>();
  private metaChain: Promise<void> = Promise.resolve();
  private closed: Promise<void> | null = null;

  constructor(parts: FileSessionParts) {
    this.id = parts.id;
    this.dir = parts.dir;
    this.log = parts.log;
    this.logPath = parts.log.path;
    this.transcriptPath = parts.log.path;
    this.fold = parts.fold;
    this.resumeAt = parts.resumeAt;
    this.lock = parts.lock;
    this.artifacts = parts.artifacts;
  }

  append(record: LogRecord): Promise<void> {
    try {
      this.log.appendSync([record]);
    } catch (error) {
      return Promise.reject(error);
    }
    // Only what reached the log is folded, at once, so `snapshot()` right after sees it.
    this.fold.apply(record);
    if (record.kind === "title") this.queueMeta();
    try {
      if (record.kind === "compaction") this.writeResumePoint(record.ts);

      // A rewind before the resume point this fold started from: fold the whole log, now,
      // before any other append (a rare, slow path; nothing else is lost meanwhile).
      if (this.fold.missedHistory) this.foldWholeLog();
    } catch (error) {
      return Promise.reject(error);
    }
    return Promise.resolve();
  }

  /**
   * After a compaction: the fold as a `resumePoint` record, so that the next open starts
   * here. The fold then starts over from it too, so memory follows the working set. A crash
   * before it is written only makes the next open start from an earlier point.
   */
  private writeResumePoint(ts: number): void {
    const point = this.fold.resumePoint(ts);
    const at = this.log.size;
    try {
      this.log.appendSync([point]);
      this.resumeAt = at;
    } catch {
      return; // derived data: the compaction is in the log, and the next open starts earlier
    }
    this.fold.apply(point);
  }

  private foldWholeLog(): void {
    const fold = new ReplayFold();
    for (const record of readRecordsSync(this.logPath)) fold.apply(record);
    this.fold = fold;
  }

  appendAgent(agentId: string, record: LogRecord): Promise<void> {
    if (this.closed)
      return Promise.reject(new StoreError("closed", `session ${this.id} is closed`));
    return this.agentLog(agentId).then((log) => log.append(record));
  }

  async readAgent(agentId: string): Promise<FileAgentTranscript> {
    const read = await readLog(this.agentPath(agentId));
    return { records: read.records, read, replay: replay(read.records) };
  }

  workingSet() {
    return this.fold.workingSet();
  }

  snapshot() {
    return this.fold.snapshot();
  }

  /** The whole transcript: from memory, or (after a resume point) read from the log. */
  async transcript() {
    const now = this.fold.snapshot();
    if (!now.earlierHistory) return now.transcript;
    return replay((await readLog(this.logPath)).records).transcript;
  }

  async sync(): Promise<void> {
    await this.log.sync();
    for (const log of this.agentLogs.values()) await (await log).sync();
    this.queueMeta();
    await this.metaChain;
  }

  close(): Promise<void> {
    this.closed ??= this.closeOnce();
    return this.closed;
  }

  private async closeOnce(): Promise<void> {
    try {
      this.queueMeta();
      await this.metaChain;
      for (const log of this.agentLogs.values()) await (await log).close();
      await this.log.close();
    } finally {
      await this.lock.release();
    }
  }

  agentTranscriptPath(agentId: string): string {
    return this.agentPath(agentId);
  }

  private agentPath(agentId: string): string {
    if (!SAFE_AGENT_ID.test(agentId)) {
      throw new StoreError(
        "invalidRecord",
        `agent id ${JSON.stringify(agentId)} is not a safe name`,
      );
    }
    return join(this.dir, "agents", `${agentId}.jsonl`);
  }

  private agentLog(agentId: string): Promise<AppendLog> {
    let log = this.agentLogs.get(agentId);
    if (log === undefined) {
      log = (async () => {
        const path = this.agentPath(agentId);
        await mkdir(join(this.dir, "agents"), { recursive: true, mode: PRIVATE_DIR });
        return (await openLogForAppend(path)).log;
      })();
      this.agentLogs.set(agentId, log);
      // A failed open is not cached, so a later append can try again.
      log.catch(() => this.agentLogs.delete(agentId));
    }
    return log;
  }

  // Meta writes are serialised; a failure only leaves meta.json stale (the log is the truth,
  // and the next open rebuilds it).
  private queueMeta(): void {
    const now = this.fold.snapshot();
    const meta = metaFromReplay(this.id, now, this.log.size, Date.now(), this.resumeAt);
    this.metaChain = this.metaChain
      .then(() => writeMeta(join(this.dir, "meta.json"), meta))
      .catch(() => undefined);
  }
}
