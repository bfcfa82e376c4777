import { isAbsolute, join } from "node:path";
import type { ProjectFileReader } from "@z-engine/protocol";
import { type FileStamp, stampOf } from "@z-engine/tools";
import { findKnownKeys } from "../util/key-formats.js";
import type { FileLook, FileLooker } from "./seams.js";

const sameStamp = (a: FileStamp | null, b: FileStamp | null) =>
  a !== null && b !== null && a.size === b.size && a.mtimeMs === b.mtimeMs;

/**
 * A {@link FileLooker} on `door` (a door whose rules are the session's Read rules: a deny or
 * a read that would ask is refused, and nothing is read). Relative paths are taken from
 * `root`. A file holding a known key format is not handed over either: a text read for the
 * model without a call skips the before-request screen, so the agent must Read such a file
 * itself (and the screen asks). The stamp is given only when the whole file was read and neither its real path's
 * size nor its time changed while it was read.
 */
export function fileLooker(door: ProjectFileReader, root: string): FileLooker {
  return async (path, maxChars) => {
    if (path.length === 0 || path.includes("\0") || maxChars <= 0) return undefined;
    const absolute = isAbsolute(path) ? path : join(root, path);
    const admitted = await door.admit(absolute);
    if (!admitted.ok) return undefined;
    const before = await stampOf(admitted.realPath);
    // A character is at most four bytes: enough for maxChars, and no more.
    const read = await door.readText(absolute, { maxBytes: maxChars * 4, cut: true });
    if (!read.ok) return undefined;
    const after = await stampOf(read.realPath);
    const text = read.text.slice(0, maxChars);
    if (findKnownKeys(text).length > 0) return undefined;
    const cut = read.cut || text.length < read.text.length;
    const whole = !cut && read.realPath === admitted.realPath && sameStamp(before, after);
    const look: FileLook = { path, realPath: read.realPath, text, cut };
    return whole && after ? { ...look, stamp: after } : look;
  };
}

/** `text` cut to `max` characters, with a marker saying so. */
export function cutText(text: string, max: number, cut: boolean): string {
  if (!cut && text.length <= max) return text;
  return `${text.slice(0, max)}\n[... cut: the file is longer; Read it for the rest]`;
}
