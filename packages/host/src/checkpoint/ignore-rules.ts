import { isGlobSpecial, wildmatch } from "./wildmatch.js";

/**
 * Gitignore patterns as git 2.39 reads and matches them (gitignore(5), `dir.c`): one file's
 * patterns are an {@link IgnoreList}; {@link lastMatch} asks it about one path. Anything this
 * module is not sure git treats the same way makes {@link parseIgnoreList} answer
 * `unsupported` (the caller then asks git), never a guess.
 */

const NEWLINE = 0x0a;
const CR = 0x0d;
const HASH = 0x23;
const BANG = 0x21;
const SLASH = 0x2f;
const SPACE = 0x20;
const BACKSLASH = 0x5c;
const STAR = 0x2a;
const COLON = 0x3a;
const OPEN = 0x5b;

/** One compiled pattern (git's `struct path_pattern`). */
export interface IgnorePattern {
  /** The pattern's bytes without `!` and without the trailing `/` of a folder-only pattern. */
  readonly bytes: Uint8Array;
  /** `!pattern`: a match re-includes. */
  readonly negative: boolean;
  /** `pattern/`: matches folders only. */
  readonly mustBeDir: boolean;
  /** No `/` in the pattern: matched against the base name at any depth. */
  readonly noDir: boolean;
  /** `*literal`: a base-name suffix test. */
  readonly endsWith: boolean;
  /** How many leading bytes hold no glob-special byte (git's `nowildcardlen`). */
  readonly prefix: number;
}

/** One ignore file's patterns, in file order. */
export interface IgnoreList {
  /** Byte length of the folder it applies to, with its trailing `/` ("" at the root: 0). */
  readonly baseLength: number;
  readonly patterns: readonly IgnorePattern[];
}

/** Why a file was not parsed: the caller must ask git. */
export interface IgnoreUnsupported {
  readonly unsupported: string;
}

/** Git's `trim_trailing_spaces`: drops unescaped trailing spaces; a final `\` keeps all. */
function trimTrailingSpaces(line: Uint8Array): Uint8Array {
  let lastSpace = -1;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === SPACE) {
      if (lastSpace < 0) lastSpace = i;
    } else if (c === BACKSLASH) {
      i++;
      if (i >= line.length) return line;
      lastSpace = -1;
    } else lastSpace = -1;
  }
  return lastSpace >= 0 ? line.subarray(0, lastSpace) : line;
}

function simpleLength(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length && !isGlobSpecial(bytes[i] ?? 0)) i++;
  return i;
}

/**
 * Git's `parse_path_pattern` on one trimmed line: a string when the line is unsupported, null
 * for a pattern that can match nothing.
 */
function compile(line: Uint8Array): IgnorePattern | string | null {
  if (line.includes(0)) return "a NUL byte in a pattern";
  for (let i = 0; i + 1 < line.length; i++) {
    if (line[i] === OPEN && line[i + 1] === COLON) return "a [: (POSIX class) in a pattern";
  }
  const negative = line[0] === BANG;
  let body = negative ? line.subarray(1) : line;
  const mustBeDir = body.length > 0 && body[body.length - 1] === SLASH;
  if (mustBeDir) body = body.subarray(0, body.length - 1);
  // `!` or `/` alone: git keeps an empty pattern, which matches nothing.
  if (body.length === 0) return null;
  const noDir = !body.includes(SLASH);
  const prefix = Math.min(simpleLength(body), body.length);
  const endsWith = body[0] === STAR && simpleLength(body.subarray(1)) === body.length - 1;
  return { bytes: body, negative, mustBeDir, noDir, endsWith, prefix };
}

/**
 * Parses one ignore file's bytes as git does (`add_patterns_from_buffer`): a UTF-8 BOM at the
 * start is skipped, lines split on `\n` (a `\r` before it dropped; the last line needs no
 * newline), empty lines and lines starting with `#` skipped, unescaped trailing spaces
 * trimmed. `baseLength` is the byte length of the folder the file applies to, with its `/`
 * (0 for the root and for `info/exclude` and the excludes file). Never throws.
 */
export function parseIgnoreList(
  content: Uint8Array,
  baseLength: number,
): IgnoreList | IgnoreUnsupported {
  let start = 0;
  if (content[0] === 0xef && content[1] === 0xbb && content[2] === 0xbf) start = 3;
  const patterns: IgnorePattern[] = [];
  while (start < content.length) {
    let end = content.indexOf(NEWLINE, start);
    if (end < 0) end = content.length;
    if (end > start && content[start] !== HASH) {
      const cut = content[end - 1] === CR ? end - 1 : end;
      const line = trimTrailingSpaces(content.subarray(start, cut));
      if (line.length > 0) {
        const pattern = compile(line);
        if (typeof pattern === "string") return { unsupported: pattern };
        if (pattern) patterns.push(pattern);
      }
    }
    start = end + 1;
  }
  return { baseLength, patterns };
}

function matchesBaseName(pattern: IgnorePattern, path: Uint8Array, baseStart: number): boolean {
  const { bytes, prefix } = pattern;
  const nameLength = path.length - baseStart;
  if (prefix === bytes.length) {
    if (nameLength !== bytes.length) return false;
    for (let i = 0; i < nameLength; i++) if (path[baseStart + i] !== bytes[i]) return false;
    return true;
  }
  if (pattern.endsWith) {
    const tail = bytes.length - 1;
    if (tail > nameLength) return false;
    const from = path.length - tail;
    for (let i = 0; i < tail; i++) if (path[from + i] !== bytes[i + 1]) return false;
    return true;
  }
  return wildmatch(bytes, 0, bytes.length, path, baseStart, path.length, false);
}

/** Git's `match_pathname`: the literal prefix is compared first, the rest goes to wildmatch. */
function matchesPath(pattern: IgnorePattern, path: Uint8Array, nameStart: number): boolean {
  let { bytes, prefix } = pattern;
  if (bytes[0] === SLASH) {
    bytes = bytes.subarray(1);
    prefix--;
  }
  const nameLength = path.length - nameStart;
  if (prefix > 0) {
    if (prefix > nameLength) return false;
    for (let i = 0; i < prefix; i++) if (path[nameStart + i] !== bytes[i]) return false;
    if (prefix === bytes.length && prefix === nameLength) return true;
  }
  // Git hands wildmatch the pattern from after the prefix: `**` right there counts as at a start.
  return wildmatch(bytes, prefix, bytes.length, path, nameStart + prefix, path.length, true);
}

/**
 * The list's verdict on `path` (its project-relative UTF-8 bytes, under the list's folder):
 * the LAST matching pattern decides, `true` ignored, `false` re-included by a `!` pattern,
 * `undefined` when no pattern matches. `isDir` is whether the path is a real folder (a
 * symlink to one is not). Never throws.
 */
export function lastMatch(list: IgnoreList, path: Uint8Array, isDir: boolean): boolean | undefined {
  const slash = path.lastIndexOf(SLASH);
  const baseName = slash + 1;
  for (let i = list.patterns.length - 1; i >= 0; i--) {
    const pattern = list.patterns[i];
    if (!pattern || (pattern.mustBeDir && !isDir)) continue;
    const hit = pattern.noDir
      ? matchesBaseName(pattern, path, baseName)
      : matchesPath(pattern, path, list.baseLength);
    if (hit) return !pattern.negative;
  }
  return undefined;
}
