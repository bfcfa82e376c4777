import { createHash } from "node:crypto";
import type { FileStamp } from "./file-tracker.js";
import { decodeText, type TextFormat } from "./text-file.js";
import type { ReadText } from "./text-splice.js";

/**
 * A host's editor as the file tools' store of text files (an ACP client that offers
 * `fs.readTextFile` / `fs.writeTextFile`): Read, Edit, MultiEdit and Write then see unsaved
 * buffers and their edits land in the editor. The tools still resolve and check each path on
 * disk first (the gate's view; a folder, a FIFO or a device is refused and never handed to the
 * editor), keep the read-before-edit rule (by a digest of the text the editor held) and take
 * images, PDFs and binary files from disk. Grep, Glob and Bash read the disk.
 */
export interface EditorFiles {
  /**
   * The file's text as the editor holds it, unsaved changes included. Rejects when the editor
   * cannot read it (the tool reports the reason). Aborting `signal` may reject.
   */
  readonly readTextFile?: (path: string, signal: AbortSignal) => Promise<string>;
  /**
   * Replaces the file's whole text in the editor (which saves it, or shows it unsaved).
   * Rejects when it cannot. Used only when `readTextFile` is there too: a write the tools
   * cannot read back would leave read-before-edit comparing the disk with the editor.
   */
  readonly writeTextFile?: (path: string, text: string, signal: AbortSignal) => Promise<void>;
}

/** The tracker's stamp of a text as an editor held it: its UTF-8 size and a SHA-256 digest. */
export function editorStamp(text: string): FileStamp {
  return {
    size: Buffer.byteLength(text, "utf8"),
    mtimeMs: 0,
    digest: createHash("sha256").update(text).digest("hex"),
  };
}

/** A text read through the editor, decoded as the tools hold texts (LF when all CRLF). */
export interface EditorText {
  readonly file: ReadText;
  readonly stamp: FileStamp;
}

/** Reads `path` through the editor, or the reason it could not, for the model. Never rejects. */
export async function readThroughEditor(
  read: NonNullable<EditorFiles["readTextFile"]>,
  path: string,
  signal: AbortSignal,
): Promise<{ ok: true; text: EditorText } | { ok: false; error: string }> {
  let raw: string;
  try {
    raw = await read(path, signal);
  } catch (error) {
    if (signal.aborted) return { ok: false, error: "Cancelled." };
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, error: `The editor could not read ${path}: ${reason}` };
  }
  const bytes = Buffer.from(raw, "utf8");
  return { ok: true, text: { file: { ...decodeText(bytes), bytes }, stamp: editorStamp(raw) } };
}

/** The text as the editor should hold it: CRLF and a leading BOM put back where it had them. */
export function editorRaw(text: string, format: TextFormat): string {
  const body = format.crlf ? text.replaceAll("\n", "\r\n") : text;
  return format.bom ? `\uFEFF${body}` : body;
}
