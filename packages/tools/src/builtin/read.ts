import { extname } from "node:path";
import { z } from "zod";
import type { ToolCtx } from "../ctx.js";
import { titlePath } from "../paths.js";
import { callTarget, planRead } from "../planned-target.js";
import { openRegular, readAllOrCancel } from "../regular-file.js";
import { type EditorFiles, readThroughEditor } from "../editor-files.js";
import { looksBinary, decodeText } from "../text-file.js";
import { defineTool, lazySchema } from "../tool.js";
import { builtinInputJsonSchema } from "./input-json-schemas.js";
import { errorOutput, textOutput, type ToolOutput } from "../tool-output.js";
import { describe } from "./describe.js";
import {
  binaryReason,
  IMAGE_TYPES,
  MAX_IMAGE_BYTES,
  notebookText,
  pdfText,
} from "./read-formats.js";

const ReadInput = lazySchema(() =>
  z.strictObject({
    file_path: z.string().min(1).describe("The absolute path of the file to read"),
    offset: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe("The line number to start reading from (1-based)"),
    limit: z.number().int().min(1).optional().describe("The number of lines to read"),
  }),
);
type ReadInput = z.infer<ReturnType<typeof ReadInput>>;

/** Numbers lines like `cat -n` (`     1\t...`), cutting lines past `maxChars`. */
export function numberLines(text: string, offset: number, limit: number, maxChars: number) {
  const lines = text.split("\n");
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  const start = offset - 1;
  const chosen = lines.slice(start, start + limit);
  const body = chosen
    .map((line, i) => {
      const shown =
        line.length > maxChars
          ? `${line.slice(0, maxChars)}… [line cut at ${maxChars} characters]`
          : line;
      return `${String(start + i + 1).padStart(6)}\t${shown}`;
    })
    .join("\n");
  return { body, total: lines.length, shown: chosen.length };
}

function textResult(path: string, text: string, input: ReadInput, ctx: ToolCtx): ToolOutput {
  if (text === "") return textOutput(`(${path} exists but is empty)`);
  const offset = input.offset ?? 1;
  const limit = input.limit ?? ctx.limits.readMaxLines;
  const { body, total, shown } = numberLines(text, offset, limit, ctx.limits.maxLineChars);
  if (shown === 0)
    return textOutput(`(${path} has ${total} lines; offset ${offset} is past its end)`);
  const last = offset + shown - 1;
  const more =
    last < total
      ? `\n\n(Showing lines ${offset}-${last} of ${total}. Use offset and limit to read more.)`
      : "";
  return textOutput(body + more);
}

async function imageResult(path: string, bytes: Uint8Array, ctx: ToolCtx): Promise<ToolOutput> {
  const mediaType = IMAGE_TYPES[extname(path).toLowerCase()];
  if (!mediaType) return errorOutput(`${path} is not a supported image type.`);
  if (!ctx.vision)
    return errorOutput(`${path} is an image, and the current model cannot read images.`);
  if (bytes.length > MAX_IMAGE_BYTES) {
    return errorOutput(
      `${path} is an image of ${bytes.length} bytes, over the ${MAX_IMAGE_BYTES}-byte limit for the model.`,
    );
  }
  return {
    content: [
      { type: "text", text: `Image ${path} (${mediaType}, ${bytes.length} bytes)` },
      { type: "image", mediaType, data: Buffer.from(bytes).toString("base64") },
    ],
    isError: false,
    writtenPaths: [],
    artifacts: [],
  };
}

/**
 * The file opened for reading, its size checked: or an error output (missing, a folder, not a
 * regular file (never opened), too large). The caller closes the handle.
 */
async function openForRead(path: string, ctx: ToolCtx) {
  const opened = await openRegular(path, "read");
  if (!opened.ok) {
    if (opened.reason === "missing") return errorOutput(`File does not exist: ${path}`);
    if (opened.reason === "folder")
      return errorOutput(`${path} is a directory, not a file. Use Glob or Bash (ls) to list it.`);
    return errorOutput(opened.error);
  }
  if (opened.info.size > ctx.limits.maxFileBytes) {
    await opened.handle.close();
    return errorOutput(
      `${path} is ${opened.info.size} bytes, over the ${ctx.limits.maxFileBytes}-byte limit for Read. Use Grep or Bash (head, sed -n) to read parts of it.`,
    );
  }
  return opened;
}

/** The file's bytes, or an error output (see {@link openForRead}). */
async function readBytes(path: string, ctx: ToolCtx): Promise<Uint8Array | ToolOutput> {
  const opened = await openForRead(path, ctx);
  if (!("handle" in opened)) return opened;
  const { handle, info } = opened;
  try {
    const bytes = await readAllOrCancel(handle, ctx.signal);
    if (!bytes) return errorOutput("Cancelled.");
    ctx.files.record(path, { size: info.size, mtimeMs: info.mtimeMs });
    return bytes;
  } finally {
    await handle.close();
  }
}

function binaryRefusal(path: string, reason: string): ToolOutput {
  return errorOutput(
    `Cannot read ${path}: ${reason}. Use Bash with a suitable tool (file, xxd, unzip -l) instead.`,
  );
}

/**
 * A text file through the host's editor (its unsaved buffer): checked on disk first like any
 * read, then recorded by the digest of what the editor held.
 */
async function readFromEditor(
  path: string,
  input: ReadInput,
  ctx: ToolCtx,
  read: NonNullable<EditorFiles["readTextFile"]>,
): Promise<ToolOutput> {
  const opened = await openForRead(path, ctx);
  if (!("handle" in opened)) return opened;
  await opened.handle.close();
  const got = await readThroughEditor(read, path, ctx.signal);
  if (!got.ok) return errorOutput(got.error);
  const { file, stamp } = got.text;
  const reason = binaryReason(path, file.text.includes("\u0000"));
  if (reason) return binaryRefusal(path, reason);
  ctx.files.record(path, stamp);
  const ext = extname(path).toLowerCase();
  return textResult(path, ext === ".ipynb" ? notebookText(file.text) : file.text, input, ctx);
}

async function readResolved(path: string, input: ReadInput, ctx: ToolCtx): Promise<ToolOutput> {
  const ext = extname(path).toLowerCase();
  const fromEditor = ctx.ports.editor?.readTextFile;
  // Images, PDFs and files binary by their name are read from disk (an editor holds text).
  if (fromEditor && !IMAGE_TYPES[ext] && ext !== ".pdf" && !binaryReason(path, false))
    return readFromEditor(path, input, ctx, fromEditor);
  const bytes = await readBytes(path, ctx);
  if (!(bytes instanceof Uint8Array)) return bytes;
  if (IMAGE_TYPES[ext]) return imageResult(path, bytes, ctx);
  if (ext === ".pdf") return textResult(path, await pdfText(bytes), input, ctx);
  const reason = binaryReason(path, looksBinary(bytes));
  if (reason) return binaryRefusal(path, reason);
  const { text, format } = decodeText(bytes);
  const body = ext === ".ipynb" ? notebookText(text) : text;
  const output = textResult(path, body, input, ctx);
  if (format.encoding === "utf8" || output.isError) return output;
  const note = `(decoded as ${format.encoding === "latin1" ? "Latin-1: the file is not valid UTF-8" : "UTF-16"}; edits keep its encoding)\n`;
  return textOutput(note + (output.content[0]?.type === "text" ? output.content[0].text : ""));
}

/** Read: a file with line numbers (offset/limit), images as image blocks, PDFs and notebooks as text. */
export const readTool = defineTool({
  name: "Read",
  description: describe(
    "Read",
    "Reads a file from the local filesystem. file_path should be absolute. By default reads up to 2000 lines from the start; use offset and limit for long files. Output is numbered like cat -n. Images are shown to vision models; PDFs and Jupyter notebooks are returned as text. Binary files are refused.",
  ),
  inputSchema: ReadInput,
  inputJsonSchema: builtinInputJsonSchema("Read"),
  isReadOnly: () => true,
  action: async (input, ctx) => [await planRead(input.file_path, ctx)],
  title: (input, ctx) => `Read ${titlePath(input.file_path, ctx.shellSession.cwd, ctx.root)}`,
  call: async (input, ctx) => {
    const target = await callTarget(input.file_path, ctx, "read");
    if (!target.ok) return errorOutput(target.error);
    return readResolved(target.target.path, input, ctx);
  },
});
