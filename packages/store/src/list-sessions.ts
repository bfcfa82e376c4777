import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { errnoCode, StoreError } from "./errors.js";
import { legacySummaryMeta, readLegacyFile } from "./legacy-import.js";
import { readLog } from "./log-reader.js";
import { metaFromReplay, readMetaSync } from "./meta.js";
import { replay } from "./replay.js";
import type { SessionSummary } from "./session-store.js";

const SAFE_ID = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,199}$/;

async function readdirOrEmpty(dir: string) {
  try {
    return await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if (errnoCode(error) === "ENOENT") return [];
    throw new StoreError("io", `cannot list ${dir}`, { cause: error });
  }
}

// meta.json is the fast path; a folder without a readable one is summarised from its log
// (in memory only: writing it back is left to `open`, which holds the lock).
async function summaryFromLog(dir: string, id: string): Promise<SessionSummary | null> {
  try {
    const read = await readLog(join(dir, "log.jsonl"));
    const rebuilt = metaFromReplay(id, replay(read.records), read.size, 0);
    return { ...rebuilt, source: "folder" };
  } catch {
    return null;
  }
}

async function legacySummary(path: string, id: string): Promise<SessionSummary | null> {
  try {
    const legacy = await readLegacyFile(path);
    if (legacy === null) return null;
    return { ...legacySummaryMeta(id, legacy.chat, legacy.mtimeMs), source: "v1File" };
  } catch {
    return null;
  }
}

/**
 * Lists the session folders of `sessionsDir` (from their meta.json) and the v1 chat files of
 * `legacyDir` that have no folder yet, newest first (by `updatedAt`, then id). Unreadable
 * entries are left out. Rejects with `StoreError` (`io`) only when a folder cannot be listed.
 */
export async function listSessions(
  sessionsDir: string,
  legacyDir: string,
): Promise<SessionSummary[]> {
  const entries = await readdirOrEmpty(sessionsDir);
  const folderIds = entries
    .filter((e) => e.isDirectory() && SAFE_ID.test(e.name))
    .map((e) => e.name);
  const known = new Set(folderIds);
  const legacyEntries = legacyDir === sessionsDir ? entries : await readdirOrEmpty(legacyDir);
  const legacyIds = legacyEntries
    .filter((e) => e.isFile() && e.name.endsWith(".jsonl"))
    .map((e) => e.name.slice(0, -".jsonl".length))
    .filter((id) => SAFE_ID.test(id) && !known.has(id));
  const summaries: SessionSummary[] = [];
  const slow: Promise<SessionSummary | null>[] = [];
  for (const [index, id] of folderIds.entries()) {
    // Synchronous reads of small files, yielding to the event loop now and then.
    if (index > 0 && index % 500 === 0) await new Promise((resolve) => setImmediate(resolve));
    const meta = readMetaSync(join(sessionsDir, id, "meta.json"));
    if (meta !== null) summaries.push({ ...meta, source: "folder" });
    else slow.push(summaryFromLog(join(sessionsDir, id), id));
  }
  for (const id of legacyIds) slow.push(legacySummary(join(legacyDir, `${id}.jsonl`), id));
  for (const summary of await Promise.all(slow)) if (summary !== null) summaries.push(summary);
  return summaries.sort((a, b) => b.updatedAt - a.updatedAt || (a.id < b.id ? 1 : -1));
}
