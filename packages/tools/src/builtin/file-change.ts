import { mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import type { ToolDisplay } from "@z-engine/protocol";
import type { ToolCtx } from "../ctx.js";
import { changeDiff } from "../diff.js";
import { type FileStamp, stampOf } from "../file-tracker.js";
import { editorRaw, editorStamp, type EditorFiles, readThroughEditor } from "../editor-files.js";
import { displayPath, titlePath } from "../paths.js";
import { fileTarget } from "../file-target.js";
import { callTarget, planTarget } from "../planned-target.js";
import { openRegular, readAllOrCancel } from "../regular-file.js";
import { defineTool } from "../tool.js";
import { withDiagnostics } from "./after-write.js";
import { describe } from "./describe.js";
import { builtinInputJsonSchema } from "./input-json-schemas.js";
import type { z } from "zod";
import { changedText, narrowChange, type TextChange } from "../text-change.js";
import { decodeText, encodeText, looksBinary, NEW_FILE_FORMAT } from "../text-file.js";
import {
  type ReadText,
  type SpliceWrite,
  spliceFor,
  writeNewFile,
  writeSplice,
} from "../text-splice.js";
import { errorOutput, textOutput, type ToolOutput } from "../tool-output.js";

/** The file's current text and format, and the bytes they were decoded from. */
export type CurrentFile = ReadText;

/**
 * The change to make to the current file (null when it does not exist: the change then
 * applies to ""), or an error for the model.
 */
export type Transform = (
  current: CurrentFile | null,
) =>
  | { readonly ok: true; readonly change: TextChange }
  | { readonly ok: false; readonly error: string };

/** A file loaded for editing: its text (null when missing), and its editor stamp when an editor held it. */
export type LoadedFile =
  | { ok: true; file: CurrentFile | null; editorStamp?: FileStamp }
  | { ok: false; error: string };

/**
 * Loads a file for editing; an error when it is a folder, a FIFO, a device or another
 * non-regular file (never opened: see `openRegular`), binary or too large; null when missing.
 * With the host's editor (`ctx.ports.editor`), the text is the editor's (an unsaved buffer
 * included), after the same checks on disk. Aborting `ctx.signal` stops the read (an error then).
 */
export async function loadForEdit(path: string, ctx: ToolCtx): Promise<LoadedFile> {
  const opened = await openRegular(path, "read");
  if (!opened.ok)
    return opened.reason === "missing"
      ? { ok: true, file: null }
      : { ok: false, error: opened.reason === "folder" ? `${path} is a directory.` : opened.error };
  const { handle, info } = opened;
  const fromEditor = ctx.ports.editor?.readTextFile;
  try {
    if (info.size > ctx.limits.maxFileBytes) {
      return {
        ok: false,
        error: `${path} is ${info.size} bytes, over the ${ctx.limits.maxFileBytes}-byte limit for editing.`,
      };
    }
    if (fromEditor) return await loadFromEditor(path, fromEditor, ctx);
    const bytes = await readAllOrCancel(handle, ctx.signal);
    if (!bytes) return { ok: false, error: "Cancelled before writing; the file is unchanged." };
    if (looksBinary(bytes))
      return { ok: false, error: `${path} is a binary file; it cannot be edited as text.` };
    return { ok: true, file: { ...decodeText(bytes), bytes } };
  } finally {
    await handle.close();
  }
}

async function loadFromEditor(
  path: string,
  read: NonNullable<EditorFiles["readTextFile"]>,
  ctx: ToolCtx,
): Promise<LoadedFile> {
  const got = await readThroughEditor(read, path, ctx.signal);
  if (!got.ok) return got;
  if (looksBinary(got.text.file.bytes))
    return { ok: false, error: `${path} is a binary file; it cannot be edited as text.` };
  return { ok: true, file: got.text.file, editorStamp: got.text.stamp };
}

/** The diff display of a change, built from the lines around it. */
export function diffDisplay(
  path: string,
  before: string,
  change: TextChange,
  ctx: ToolCtx,
): ToolDisplay {
  const shown = displayPath(path, ctx.root);
  const { diff, added, removed } = changeDiff(shown, before, change);
  return { kind: "diff", path: shown, diff, added, removed };
}

/**
 * Plans a change without writing it: the display a preview shows, or the error the call
 * would give. Never rejects for an expected problem.
 */
export async function previewChange(
  path: string,
  transform: Transform,
  ctx: ToolCtx,
): Promise<ToolDisplay> {
  const loaded = await loadForEdit(path, ctx);
  if (!loaded.ok) return { kind: "text", text: loaded.error };
  const result = transform(loaded.file);
  if (!result.ok) return { kind: "text", text: result.error };
  const before = loaded.file?.text ?? "";
  return diffDisplay(path, before, narrowChange(before, result.change), ctx);
}

/**
 * Writes the new text: a new file as UTF-8 with LF (parent folders created); an existing one
 * in its own format, only its changed bytes, after checking once more, on the open file, that
 * it is still as read. Rejects on an I/O error.
 */
async function writeResult(
  path: string,
  file: CurrentFile | null,
  change: TextChange,
  ctx: ToolCtx,
): Promise<SpliceWrite> {
  if (file)
    return writeSplice(path, spliceFor(file, change), (now) => ctx.files.checkEditable(path, now));
  await mkdir(dirname(path), { recursive: true });
  return writeNewFile(path, encodeText(changedText("", change), NEW_FILE_FORMAT));
}

/**
 * Writes the new text of a file the editor held: through the editor when it writes, else the
 * whole file on disk (its bytes on disk may differ from the editor's text, so no splice). The
 * stamp is the new text's digest; an editor's refusal is a reason. Rejects on an I/O error.
 */
async function writeForEditor(
  path: string,
  file: CurrentFile | null,
  change: TextChange,
  ctx: ToolCtx,
): Promise<SpliceWrite> {
  const format = file?.format ?? NEW_FILE_FORMAT;
  const raw = editorRaw(changedText(file?.text ?? "", change), format);
  if (!file) await mkdir(dirname(path), { recursive: true });
  const write = ctx.ports.editor?.writeTextFile;
  if (write) {
    try {
      await write(path, raw, ctx.signal);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return { ok: false, reason: `The editor could not write ${path}: ${reason}` };
    }
  } else {
    const bytes = encodeText(changedText(file?.text ?? "", change), format);
    const written = file
      ? await writeSplice(path, { offset: 0, chunks: [bytes], length: bytes.length }, () => ({
          ok: true,
        }))
      : await writeNewFile(path, bytes);
    if (!written.ok) return written;
  }
  return { ok: true, stamp: editorStamp(raw) };
}

/**
 * Applies a change under the path's lock: refuses when an existing file was not read or
 * changed since (read-before-edit), writes the new text in the file's own encoding and line
 * endings (new files: UTF-8, LF, parent folders created), then refreshes the tracker.
 * Returns an error output for every expected failure; rejects only on an I/O error.
 */
export async function applyChange(
  path: string,
  transform: Transform,
  verb: string,
  ctx: ToolCtx,
): Promise<ToolOutput> {
  return ctx.locks.withLock([path], async () => {
    const loaded = await loadForEdit(path, ctx);
    if (!loaded.ok) return errorOutput(loaded.error);
    if (loaded.file) {
      const now = loaded.editorStamp ?? (await stampOf(path));
      const check = ctx.files.checkEditable(path, now);
      if (!check.ok) return errorOutput(check.reason);
    }
    const result = transform(loaded.file);
    if (!result.ok) return errorOutput(result.error);
    if (ctx.signal.aborted) return errorOutput("Cancelled before writing; the file is unchanged.");
    const before = loaded.file?.text ?? "";
    const change = narrowChange(before, result.change);
    const written = ctx.ports.editor?.readTextFile
      ? await writeForEditor(path, loaded.file, change, ctx)
      : await writeResult(path, loaded.file, change, ctx);
    if (!written.ok) return errorOutput(written.reason);
    ctx.files.record(path, written.stamp);
    const display = diffDisplay(path, before, change, ctx);
    const what = loaded.file ? `${verb} ${path}` : `Created ${path}`;
    const summary = display.kind === "diff" ? ` (+${display.added} -${display.removed})` : "";
    return textOutput(`${what}${summary}`, { display, writtenPaths: [path] });
  });
}

/** What a file-changing tool (Write, Edit, MultiEdit) is made of. */
export interface FileChangeToolSpec<S extends z.ZodType<{ file_path: string }>> {
  readonly name: string;
  /** The description used when prompts has none. */
  readonly fallbackDescription: string;
  /** The schema, or a function that builds it on first use (see defineTool). */
  readonly inputSchema: S | (() => S);
  /** How the call turns the file's current text into the new one. */
  readonly transform: (input: z.output<S>) => Transform;
  /** "Edited", "Wrote": the verb of the result line. */
  readonly verb: string;
  /** The title's verb and any detail after the path. */
  readonly title: (input: z.output<S>, path: string) => string;
}

/**
 * A tool that changes one file: its action is a write of the real path (symlinks, dangling
 * ones too, followed; the link's own location as well; a hard-linked file's unknown other
 * names), its preview the diff, its call `applyChange` (read-before-edit, the path's lock,
 * encoding kept) on the path the gate saw.
 */
export function defineFileChangeTool<S extends z.ZodType<{ file_path: string }>>(
  spec: FileChangeToolSpec<S>,
) {
  return defineTool({
    name: spec.name,
    description: describe(spec.name, spec.fallbackDescription),
    inputSchema: spec.inputSchema,
    inputJsonSchema: builtinInputJsonSchema(spec.name),
    action: async (input, ctx) => [
      { kind: "write", paths: await planTarget(input.file_path, ctx, "write") },
    ],
    title: (input, ctx) =>
      spec.title(input, titlePath(input.file_path, ctx.shellSession.cwd, ctx.root)),
    preview: async (input, ctx) =>
      previewChange(
        (await fileTarget(input.file_path, ctx.shellSession.cwd)).path,
        spec.transform(input),
        ctx,
      ),
    call: async (input, ctx) => {
      const target = await callTarget(input.file_path, ctx, "write");
      if (!target.ok) return errorOutput(target.error);
      const path = target.target.path;
      return withDiagnostics(
        await applyChange(path, spec.transform(input), spec.verb, ctx),
        path,
        ctx,
      );
    },
  });
}
