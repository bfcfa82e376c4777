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
import { type ReplayFold, replay } from "./replay.js";
import type { Session } from "./session-store.js";

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
}

/** A session folder open for writing (see `Session`). */
export class FileSession implements Session {
  readonly id: SessionId;
  readonly dir: string;
  readonly logPath: string;
  readonly artifacts: FileArtifactSink;
  private readonly log: AppendLog;
  private readonly fold: ReplayFold;
  private readonly lock: SessionLock;
  private readonly agentLogs = new Map<string, Promise<AppendLog>>();
  private metaChain: Promise<void> = Promise.resolve();
  private closed: Promise<void> | null = null;

  constructor(parts: FileSessionParts) {
    this.id = parts.id;
    this.dir = parts.dir;
    this.log = parts.log;
    this.logPath = parts.log.path;
    this.fold = parts.fold;
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
    return Promise.resolve();
  }

  appendAgent(agentId: string, record: LogRecord): Promise<void> {
    if (this.closed)
      return Promise.reject(new StoreError("closed", `session ${this.id} is closed`));
    return this.agentLog(agentId).then((log) => log.append(record));
  }

  async readAgent(agentId: string) {
    const read = await readLog(this.agentPath(agentId));
    return { read, replay: replay(read.records) };
  }

  snapshot() {
    return this.fold.snapshot();
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
    const meta = metaFromReplay(this.id, this.fold.snapshot(), this.log.size, Date.now());
    this.metaChain = this.metaChain
      .then(() => writeMeta(join(this.dir, "meta.json"), meta))
      .catch(() => undefined);
  }
}
