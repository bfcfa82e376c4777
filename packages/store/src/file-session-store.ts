import { mkdir, rm, stat } from "node:fs/promises";
import { PRIVATE_DIR } from "./private.js";
import { join } from "node:path";
import { newSessionId, type SessionId } from "@z-engine/protocol";
import { FileArtifactSink } from "./artifacts.js";
import { errnoCode, SessionLockedError, StoreError } from "./errors.js";
import { FileSession } from "./file-session.js";
import { importLegacyChat } from "./legacy-import.js";
import { listSessions } from "./list-sessions.js";
import { acquireLock, isProcessAlive, LOCK_FILE, readLockOwner } from "./lock.js";
import { openLogForAppend } from "./log-writer.js";
import { metaFromReplay, readMeta, writeMeta } from "./meta.js";
import { type LogRecord, logRecord } from "./records.js";
import { type Replay, ReplayFold } from "./replay.js";
import type {
  CreateSessionOptions,
  OpenedSession,
  OpenReport,
  Session,
  SessionStore,
  SessionSummary,
} from "./session-store.js";

/** Options of {@link FileSessionStore}. */
export interface FileSessionStoreOptions {
  /** The data folder; sessions live in `<dataDir>/sessions/<id>/`. */
  readonly dataDir: string;
  /** Where v1 chat files (`<id>.jsonl`) are looked for; default `<dataDir>/sessions`. */
  readonly legacyDir?: string;
  /** Size limit of one artifact in bytes (default 16 MiB); longer data is cut. */
  readonly artifactMaxBytes?: number;
}

/** Session ids become folder names: letters, digits, `_`, `-` and `.`, not starting with `.`. */
const SAFE_ID = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,199}$/;

/** Sessions as folders in a data folder (see the package README for the layout). */
export class FileSessionStore implements SessionStore {
  readonly sessionsDir: string;
  readonly legacyDir: string;
  private readonly artifactMaxBytes: number | undefined;

  constructor(options: FileSessionStoreOptions) {
    this.sessionsDir = join(options.dataDir, "sessions");
    this.legacyDir = options.legacyDir ?? this.sessionsDir;
    this.artifactMaxBytes = options.artifactMaxBytes;
  }

  /** The folder of a session (it may not exist). Throws `invalidSessionId` for an unsafe id. */
  sessionDir(id: string): string {
    if (!SAFE_ID.test(id)) {
      throw new StoreError("invalidSessionId", `${JSON.stringify(id)} is not a session id`);
    }
    return join(this.sessionsDir, id);
  }

  async create(options: CreateSessionOptions): Promise<Session> {
    const id = newSessionId();
    const dir = this.sessionDir(id);
    try {
      await mkdir(dir, { recursive: true, mode: PRIVATE_DIR });
    } catch (error) {
      throw new StoreError("io", `cannot create session folder ${dir}`, { cause: error });
    }
    const records: LogRecord[] = [
      logRecord("session", { sessionId: id, projectRoot: options.projectRoot }),
    ];
    if (options.title !== undefined) records.push(logRecord("title", { title: options.title }));
    if (options.mode !== undefined) records.push(logRecord("mode", { mode: options.mode }));
    if (options.model !== undefined) records.push(logRecord("model", { model: options.model }));
    if (options.effort !== undefined) records.push(logRecord("effort", { effort: options.effort }));
    const { session } = await this.openFolder(id, dir, records);
    await session.sync();
    return session;
  }

  async open(id: string): Promise<OpenedSession> {
    const dir = this.sessionDir(id);
    let legacyImport: OpenReport["legacyImport"] = null;
    if (!(await exists(dir))) {
      const file = join(this.legacyDir, `${id}.jsonl`);
      const imported = await importLegacyChat(id as SessionId, file, dir);
      if (imported !== null) legacyImport = { file, damage: imported.damage };
    }
    const opened = await this.openFolder(id as SessionId, dir, []);
    return { ...opened, report: { ...opened.report, legacyImport } };
  }

  list(): Promise<SessionSummary[]> {
    return listSessions(this.sessionsDir, this.legacyDir);
  }

  async delete(id: string): Promise<void> {
    const dir = this.sessionDir(id);
    const owner = await readLockOwner(join(dir, LOCK_FILE));
    if (typeof owner === "object" && isProcessAlive(owner.pid)) {
      throw new SessionLockedError(id, owner.pid, owner.hostname);
    }
    const legacyFile = join(this.legacyDir, `${id}.jsonl`);
    const found = (await exists(dir)) || (await exists(legacyFile));
    if (!found) throw new StoreError("notFound", `no session ${id}`);
    try {
      await rm(dir, { recursive: true, force: true });
      await rm(legacyFile, { force: true });
    } catch (error) {
      throw new StoreError("io", `cannot delete session ${id}`, { cause: error });
    }
  }

  // Lock, repair the torn tail, replay, append `initial`, heal meta.json.
  private async openFolder(
    id: SessionId,
    dir: string,
    initial: readonly LogRecord[],
  ): Promise<Omit<OpenedSession, "session"> & { session: FileSession }> {
    if (!(await exists(dir))) throw new StoreError("notFound", `no session ${id}`);
    const lock = await acquireLock(dir, id);
    try {
      const { log, read } = await openLogForAppend(join(dir, "log.jsonl"));
      const fold = new ReplayFold();
      for (const record of read.records) fold.apply(record);
      if (initial.length > 0) log.appendSync(initial);
      for (const record of initial) fold.apply(record);
      const replay = fold.snapshot();
      const metaRebuilt = await this.healMeta(id, dir, replay, log.size);
      const artifacts = new FileArtifactSink(join(dir, "artifacts"), this.artifactMaxBytes);
      const session = new FileSession({ id, dir, log, fold, lock, artifacts });
      const report: OpenReport = {
        damage: read.damage,
        unknown: read.unknown,
        tornTail: read.tornTail,
        metaRebuilt: initial.length > 0 ? null : metaRebuilt,
        legacyImport: null,
      };
      return { session, replay, report };
    } catch (error) {
      await lock.release();
      throw error;
    }
  }

  private async healMeta(
    id: string,
    dir: string,
    replay: Replay,
    logBytes: number,
  ): Promise<OpenReport["metaRebuilt"]> {
    const path = join(dir, "meta.json");
    const meta = await readMeta(path);
    const reason =
      meta === null
        ? (await exists(path))
          ? "damaged"
          : "missing"
        : meta.id !== id || meta.logBytes !== logBytes
          ? "stale"
          : null;
    if (reason !== null) {
      await writeMeta(path, metaFromReplay(id, replay, logBytes, Date.now()));
    }
    return reason;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch (error) {
    if (errnoCode(error) === "ENOENT") return false;
    throw new StoreError("io", `cannot read ${path}`, { cause: error });
  }
}
