import { extname } from "node:path";
import type { ImageBlock } from "@z-engine/protocol";

/** Image types Read returns as image blocks, by extension. */
export const IMAGE_TYPES: Readonly<Record<string, ImageBlock["mediaType"]>> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
};

/** Largest image sent to the model (its base64 must stay under 5 MB). */
export const MAX_IMAGE_BYTES = 3_750_000;

const BINARY_EXTENSIONS = new Set(
  ".zip .gz .tgz .bz2 .xz .7z .rar .tar .jar .war .exe .dll .so .dylib .o .a .class .pyc .wasm .bin .dat .db .sqlite .ico .bmp .tiff .mp3 .mp4 .mov .avi .wav .flac .ogg .woff .woff2 .ttf .otf .eot .psd".split(
    " ",
  ),
);

/** Why a file is refused as binary, or null. */
export function binaryReason(path: string, looksBinary: boolean): string | null {
  const ext = extname(path).toLowerCase();
  if (BINARY_EXTENSIONS.has(ext)) return `it is a binary file (${ext})`;
  if (looksBinary) return "it is a binary file (it contains NUL bytes)";
  return null;
}

/** PDF text per page, with `--- Page N ---` headers. Rejects when the PDF cannot be parsed. */
export async function pdfText(bytes: Uint8Array): Promise<string> {
  const { extractText, getDocumentProxy } = await import("unpdf");
  const document = await getDocumentProxy(new Uint8Array(bytes));
  const { text } = await extractText(document, { mergePages: false });
  return text.map((page, i) => `--- Page ${i + 1} ---\n${page}`).join("\n");
}

interface NotebookCell {
  readonly cell_type?: unknown;
  readonly source?: unknown;
  readonly outputs?: unknown;
}

function joinSource(source: unknown): string {
  if (Array.isArray(source)) return source.map(String).join("");
  return typeof source === "string" ? source : "";
}

function outputText(output: unknown): string {
  if (typeof output !== "object" || output === null) return "";
  const record = output as Record<string, unknown>;
  if (record.text !== undefined) return joinSource(record.text);
  const data = record.data as Record<string, unknown> | undefined;
  if (data && data["text/plain"] !== undefined) return joinSource(data["text/plain"]);
  if (typeof record.ename === "string") return `${record.ename}: ${String(record.evalue ?? "")}`;
  if (data && Object.keys(data).some((k) => k.startsWith("image/"))) return "[image output]";
  return "";
}

/** A Jupyter notebook as text: each cell with its type, source and text outputs. Throws on invalid JSON. */
export function notebookText(raw: string): string {
  const parsed = JSON.parse(raw) as { cells?: unknown };
  if (!Array.isArray(parsed.cells)) throw new Error("not a Jupyter notebook (no cells)");
  const parts = (parsed.cells as NotebookCell[]).map((cell, i) => {
    const type = typeof cell.cell_type === "string" ? cell.cell_type : "unknown";
    let text = `# Cell ${i + 1} [${type}]\n${joinSource(cell.source)}`;
    const outputs = Array.isArray(cell.outputs)
      ? cell.outputs.map(outputText).filter((t) => t !== "")
      : [];
    if (outputs.length > 0) text += `\n# Output\n${outputs.join("\n")}`;
    return text;
  });
  return parts.join("\n\n");
}
