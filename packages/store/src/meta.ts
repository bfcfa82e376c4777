import { readFileSync } from "node:fs";
import { readFile, rename, writeFile } from "node:fs/promises";
import { PRIVATE_FILE } from "./private.js";
import { TurnOutcome, Usage, lazily } from "@z-engine/protocol";
import { z } from "zod";
import { errnoCode, StoreError } from "./errors.js";
import { STORE_FORMAT_VERSION } from "./records.js";
import type { Replay } from "./replay.js";

/**
 * meta.json: what the chat list shows, a cache of the log. `logBytes` is the log's size when
 * it was written; a log of another size means the meta is stale and gets rebuilt on open.
 */
export const SessionMeta = lazily(() =>
  z.object({
    v: z.literal(STORE_FORMAT_VERSION),
    id: z.string(),
    title: z.string().nullable(),
    createdAt: z.number(),
    updatedAt: z.number(),
    projectRoot: z.string().nullable(),
    costUsd: z.number().nonnegative(),
    usage: Usage,
    messageCount: z.number().int().nonnegative(),
    turnCount: z.number().int().nonnegative(),
    /** The last turn's status: its outcome, `running` when unfinished, null before any turn. */
    lastTurn: z.union([TurnOutcome, z.literal("running")]).nullable(),
    /** Converted from a v1 chat file (the chat list shows a v1 tag). */
    legacy: z.boolean(),
    logBytes: z.number().int().nonnegative(),
    /**
     * Where the log's last resume point starts (null: it has none), as of `logBytes`: spares
     * `open` the scan back for it. Absent in meta written before resume points.
     */
    resumeAt: z.number().int().nonnegative().nullable().optional(),
  }),
);
/** meta.json of one session. */
export type SessionMeta = z.infer<typeof SessionMeta>;

/** Builds the meta of a session from its replay. Never throws. */
export function metaFromReplay(
  id: string,
  replay: Replay,
  logBytes: number,
  fallbackTime: number,
  resumeAt?: number | null,
): SessionMeta {
  const { state } = replay;
  const lastTurn = state.lastTurn;
  return {
    v: STORE_FORMAT_VERSION,
    id,
    title: state.title,
    createdAt: state.createdAt || fallbackTime,
    updatedAt: state.updatedAt || fallbackTime,
    projectRoot: state.projectRoot,
    costUsd: replay.totalUsage.costUsd,
    usage: replay.totalUsage,
    messageCount: state.messageCount,
    turnCount: state.turnCount,
    lastTurn:
      lastTurn === null ? null : lastTurn.status === "running" ? "running" : lastTurn.outcome,
    legacy: state.legacyFile !== null,
    logBytes,
    ...(resumeAt === undefined ? {} : { resumeAt }),
  };
}

/** Reads meta.json: the meta, or null when it is missing or damaged. Never throws. */
export async function readMeta(path: string): Promise<SessionMeta | null> {
  try {
    const parsed = SessionMeta.safeParse(JSON.parse(await readFile(path, "utf8")));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * `readMeta` with a synchronous read: listing thousands of sessions is several times faster
 * this way than with one promise per file. Never throws.
 */
export function readMetaSync(path: string): SessionMeta | null {
  try {
    const parsed = SessionMeta.safeParse(JSON.parse(readFileSync(path, "utf8")));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * Writes meta.json atomically (a temporary file renamed over it), so a reader sees the old
 * or the new file, never half of one. Rejects with `StoreError` (`io`).
 */
export async function writeMeta(path: string, meta: SessionMeta): Promise<void> {
  const temp = `${path}.${process.pid}.tmp`;
  try {
    await writeFile(temp, `${JSON.stringify(meta, null, 2)}\n`, { mode: PRIVATE_FILE });
    await rename(temp, path);
  } catch (error) {
    if (errnoCode(error) === "ENOENT") {
      throw new StoreError("notFound", `session folder of ${path} is gone`, { cause: error });
    }
    throw new StoreError("io", `cannot write ${path}`, { cause: error });
  }
}
