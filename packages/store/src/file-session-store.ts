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
import { type OpenedLog, openLogForAppend } from "./log-writer.js";
import { readLog } from "./log-reader.js";
import { findLastResumePoint } from "./resume-scan.js";
import { metaFromReplay, readMeta, writeMeta } from "./meta.js";
import type { LogRecord } from "./records.js";
import { sessionStartRecords } from "./session-start-records.js";
import { type Replay, ReplayFold } from "./replay.js";
import type { LogDamage, TornTail } from "./log-reader.js";
import type {
  CreateSessionOptions,
  OpenedSession,
  OpenReport,
  SessionStore,
  StoreNotice,
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

/** What opening a session folder found and repaired: the common report, and the file details. */
export interface FileOpenReport extends OpenReport {
  /** The half-written last line cut off the log, if any. */
  readonly tornTail: TornTail | null;
  /** Why meta.json was rebuilt from the log, or null when it was current. */
  readonly metaRebuilt: "missing" | "damaged" | "stale" | null;
  /** Set when this open converted a v1 chat file; lines of it that could not be converted. */
  readonly legacyImport: { readonly file: string; readonly damage: readonly LogDamage[] } | null;
}

/** `FileSessionStore.open`'s result: the file session handle and the file report. */
export interface FileOpenedSession extends OpenedSession {
  readonly session: FileSession;
  readonly report: FileOpenReport;
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

  async create(options: CreateSessionOptions): Promise<FileSession> {
    const id = (options.id ?? newSessionId()) as SessionId;
    const dir = this.sessionDir(id);
    if (options.id !== undefined && (await exists(join(this.legacyDir, `${id}.jsonl`))))
      throw new StoreError("exists", `a session ${id} already exists`);
    try {
      await mkdir(this.sessionsDir, { recursive: true, mode: PRIVATE_DIR });
      // Not recursive: the folder's creation is the claim on the id.
      await mkdir(dir, { mode: PRIVATE_DIR });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST")
        throw new StoreError("exists", `a session ${id} already exists`);
      throw new StoreError("io", `cannot create session folder ${dir}`, { cause: error });
    }
    const { session } = await this.openFolder(id, dir, sessionStartRecords(id, options));
    await session.sync();
    return session;
  }

  async open(id: string): Promise<FileOpenedSession> {
    const dir = this.sessionDir(id);
    let legacyImport: FileOpenReport["legacyImport"] = null;
    if (!(await exists(dir))) {
      const file = join(this.legacyDir, `${id}.jsonl`);
      const imported = await importLegacyChat(id as SessionId, file, dir);
      if (imported !== null) legacyImport = { file, damage: imported.damage };
    }
    const opened = await this.openFolder(id as SessionId, dir, []);
    const notices = [...opened.report.notices];
    if (legacyImport !== null)
      notices.push({
        level: "info",
        code: "log.legacyImport",
        message: `converted the v1 chat ${legacyImport.file} into this session`,
      });
    return { ...opened, report: { ...opened.report, legacyImport, notices } };
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
  ): Promise<FileOpenedSession> {
    if (!(await exists(dir))) throw new StoreError("notFound", `no session ${id}`);
    const lock = await acquireLock(dir, id);
    // A new session (`create`, the only caller with initial records) has no meta.json and no
    // resume point to look for, and its caller writes meta.json next (`sync`): reading and
    // healing it here took a few file system round trips before the first request.
    const creating = initial.length > 0;
    try {
      const hint = creating
        ? null
        : await resumeHint(join(dir, "meta.json"), join(dir, "log.jsonl"));
      const { log, read, fold, resumeAt } = await openAndFold(join(dir, "log.jsonl"), hint);
      if (creating) log.appendSync(initial);
      for (const record of initial) fold.apply(record);
      const replay = fold.snapshot();
      const metaRebuilt = creating
        ? null
        : await this.healMeta(id, dir, replay, log.size, resumeAt);
      const artifacts = new FileArtifactSink(join(dir, "artifacts"), this.artifactMaxBytes);
      const session = new FileSession({ id, dir, log, fold, lock, artifacts, resumeAt });
      const notices: StoreNotice[] = [];
      if (read.tornTail !== null)
        notices.push({
          level: "warning",
          code: "log.tornTail",
          message: `the log's last line was half-written (a crash); it was cut (${read.tornTail.bytes} bytes)`,
        });
      const report: FileOpenReport = {
        damage: read.damage,
        unknown: read.unknown,
        notices,
        tornTail: read.tornTail,
        metaRebuilt,
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
    resumeAt: number | null,
  ): Promise<FileOpenReport["metaRebuilt"]> {
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
      await writeMeta(path, metaFromReplay(id, replay, logBytes, Date.now(), resumeAt));
    }
    return reason;
  }
}

type Folded = OpenedLog & { readonly fold: ReplayFold; readonly resumeAt: number | null };

/**
 * Where the last resume point starts, from meta.json when it describes the log as it is now
 * (null: none), else undefined (scan for it).
 */
async function resumeHint(metaPath: string, logPath: string): Promise<number | null | undefined> {
  const meta = await readMeta(metaPath);
  if (meta?.resumeAt === undefined) return undefined;
  const size = await stat(logPath).then(
    (s) => s.size,
    () => -1,
  );
  return meta.logBytes === size ? meta.resumeAt : undefined;
}

/**
 * Opens a log for appending and folds it: from its last resume point when it has one (the
 * records before it are not read), else from the first line. Falls back to the whole log
 * when the resume point is not whole or a later rewind reaches before it.
 */
async function openAndFold(path: string, hint: number | null | undefined): Promise<Folded> {
  const from = (hint === undefined ? await findLastResumePoint(path) : hint) ?? 0;
  const opened = await openLogForAppend(path, { from });
  const [first, ...rest] = opened.read.records;
  if (from === 0 || first?.kind !== "resumePoint") {
    if (from > 0) return wholeLog(opened);
    const fold = new ReplayFold({ rebase: true });
    for (const record of opened.read.records) fold.apply(record);
    return fold.missedHistory ? wholeLog(opened) : { ...opened, fold, resumeAt: null };
  }
  const fold = ReplayFold.fromResumePoint(first, { rebase: true });
  for (const record of rest) fold.apply(record);
  return fold.missedHistory ? wholeLog(opened) : { ...opened, fold, resumeAt: from };
}

/** The whole log read and folded, keeping every record's history (no rebase). */
async function wholeLog(opened: OpenedLog): Promise<Folded> {
  const whole = await readLog(opened.log.path);
  const fold = new ReplayFold();
  for (const record of whole.records) fold.apply(record);
  // The torn tail was cut by the first read; report it from there.
  const read = { ...whole, tornTail: opened.read.tornTail };
  return { log: opened.log, read, fold, resumeAt: null };
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
