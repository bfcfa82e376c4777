import { isUtf8 } from "node:buffer";

/** How a text file is stored on disk, so an edit writes it back the same way. */
export interface TextFormat {
  readonly encoding: "utf8" | "latin1" | "utf16le";
  readonly bom: boolean;
  /** True when every line break is CRLF (the text is then held with LF). */
  readonly crlf: boolean;
}

/** A decoded text file: `text` uses LF when the file is all CRLF. */
export interface TextFile {
  readonly text: string;
  readonly format: TextFormat;
}

/** True when the bytes look binary: a NUL byte in the first 8 KB (UTF-16 with a BOM excepted). */
export function looksBinary(bytes: Uint8Array): boolean {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return false;
  const end = Math.min(bytes.length, 8192);
  for (let i = 0; i < end; i++) if (bytes[i] === 0) return true;
  return false;
}

function decodeRaw(bytes: Uint8Array): {
  raw: string;
  encoding: TextFormat["encoding"];
  bom: boolean;
} {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) {
    return {
      raw: new TextDecoder("utf-16le").decode(bytes.subarray(2)),
      encoding: "utf16le",
      bom: true,
    };
  }
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const body = Buffer.from(
    bytes.buffer,
    bytes.byteOffset + (bom ? 3 : 0),
    bytes.byteLength - (bom ? 3 : 0),
  );
  // isUtf8 then toString is several times faster than a fatal TextDecoder on large files.
  if (isUtf8(body)) return { raw: body.toString("utf8"), encoding: "utf8", bom };
  return { raw: Buffer.from(bytes).toString("latin1"), encoding: "latin1", bom: false };
}

/** True when the text has line breaks and every one is CRLF. */
function allCrlf(raw: string): boolean {
  const lf = raw.indexOf("\n");
  if (lf < 0 || raw.indexOf("\r") < 0) return false;
  let crlfCount = 0;
  let lfCount = 0;
  for (let i = lf; i >= 0; i = raw.indexOf("\n", i + 1)) {
    lfCount++;
    if (raw.charCodeAt(i - 1) === 13) crlfCount++;
    else return false;
  }
  return crlfCount === lfCount;
}

/** Decodes bytes: UTF-8 (BOM kept in the format), UTF-16LE with BOM, else Latin-1. Never throws. */
export function decodeText(bytes: Uint8Array): TextFile {
  const { raw, encoding, bom } = decodeRaw(bytes);
  const crlf = allCrlf(raw);
  return { text: crlf ? raw.replaceAll("\r\n", "\n") : raw, format: { encoding, bom, crlf } };
}

/**
 * Encodes text in its format without the BOM (see {@link encodeText}). Never throws (Latin-1
 * cannot hold every character: those become `?`).
 */
export function encodeBody(text: string, format: TextFormat): Buffer {
  const raw = format.crlf ? text.replaceAll("\n", "\r\n") : text;
  if (format.encoding === "utf16le") return Buffer.from(raw, "utf16le");
  if (format.encoding === "latin1")
    return Buffer.from(raw.replace(/[\u{100}-\u{10ffff}]/gu, "?"), "latin1");
  return Buffer.from(raw, "utf8");
}

/** The BOM a format starts with (empty without one). */
export function bomOf(format: TextFormat): Buffer {
  if (format.encoding === "utf16le") return Buffer.from([0xff, 0xfe]);
  return format.bom ? Buffer.from([0xef, 0xbb, 0xbf]) : Buffer.alloc(0);
}

/** Encodes text back in its format, BOM included. Never throws (Latin-1 `?` as above). */
export function encodeText(text: string, format: TextFormat): Buffer {
  const bom = bomOf(format);
  const body = encodeBody(text, format);
  return bom.length === 0 ? body : Buffer.concat([bom, body]);
}

/** The format of a new file: UTF-8, no BOM, LF. */
export const NEW_FILE_FORMAT: TextFormat = { encoding: "utf8", bom: false, crlf: false };
