import { randomBytes } from "node:crypto";
import { mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { PRIVATE_DIR, PRIVATE_FILE } from "./private.js";
import { join } from "node:path";
import type { SessionId } from "@z-engine/protocol";
import { errnoCode, StoreError } from "./errors.js";
import { type LegacyChat, legacyRecords, parseLegacyChat } from "./legacy.js";
import type { LogDamage } from "./log-reader.js";
import { metaFromReplay, type SessionMeta, writeMeta } from "./meta.js";
import { replay } from "./replay.js";

/** Reads a v1 chat file; null when it does not exist. Rejects with `StoreError` (`io`). */
export async function readLegacyFile(
  path: string,
): Promise<{ chat: LegacyChat; mtimeMs: number } | null> {
  try {
    const [text, info] = await Promise.all([readFile(path, "utf8"), stat(path)]);
    return { chat: parseLegacyChat(text, info.mtimeMs), mtimeMs: info.mtimeMs };
  } catch (error) {
    if (errnoCode(error) === "ENOENT") return null;
    throw new StoreError("io", `cannot read v1 chat ${path}`, { cause: error });
  }
}

/** The chat list entry of a v1 file not yet converted. Never throws. */
export function legacySummaryMeta(id: string, chat: LegacyChat, mtimeMs: number): SessionMeta {
  const records = legacyRecords(id as SessionId, chat, `${id}.jsonl`, mtimeMs);
  return { ...metaFromReplay(id, replay(records), 0, mtimeMs), updatedAt: mtimeMs };
}

/**
 * Converts the v1 chat file `legacyPath` into the session folder `target`: the folder is
 * built under a temporary name and renamed into place, so a crash leaves either no folder or
 * a whole one. The original file is not changed. Resolves to the lines that could not be
 * converted; resolves to null when another process converted it first. Rejects with
 * `StoreError` (`notFound`, `importFailed`).
 */
export async function importLegacyChat(
  id: SessionId,
  legacyPath: string,
  target: string,
): Promise<{ damage: readonly LogDamage[] } | null> {
  const legacy = await readLegacyFile(legacyPath);
  if (legacy === null) throw new StoreError("notFound", `no session ${id}`);
  const records = legacyRecords(id, legacy.chat, legacyPath, legacy.mtimeMs);
  const text = records.map((r) => `${JSON.stringify(r)}\n`).join("");
  const temp = join(target, "..", `.import-${id}-${randomBytes(4).toString("hex")}`);
  try {
    await mkdir(temp, { recursive: true, mode: PRIVATE_DIR });
    await writeFile(join(temp, "log.jsonl"), text, { mode: PRIVATE_FILE });
    const meta = metaFromReplay(id, replay(records), Buffer.byteLength(text), legacy.mtimeMs);
    await writeMeta(join(temp, "meta.json"), meta);
    try {
      await rename(temp, target);
    } catch (error) {
      const code = errnoCode(error);
      if (code === "EEXIST" || code === "ENOTEMPTY") return null;
      throw error;
    }
    return { damage: legacy.chat.damage };
  } catch (error) {
    throw new StoreError("importFailed", `cannot convert v1 chat ${legacyPath}`, { cause: error });
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
}
