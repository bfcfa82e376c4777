/** A frontmatter value: a scalar string, or a list of strings. */
export type FrontmatterValue = string | string[];

/** A markdown file split into its frontmatter fields and its body. */
export interface ParsedMarkdown {
  readonly data: Readonly<Record<string, FrontmatterValue>>;
  readonly body: string;
}

/** The outcome of parsing frontmatter: the parts, or an error naming the line at fault. */
export type FrontmatterResult = ({ ok: true } & ParsedMarkdown) | { ok: false; error: string };

const KEY_LINE = /^([A-Za-z_][\w-]*)\s*:(?:\s+(.*))?$/;
const LIST_ITEM = /^\s*-\s*(.*)$/;

function unquote(raw: string): string {
  const value = raw.trim();
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) {
    try {
      const parsed: unknown = JSON.parse(value);
      if (typeof parsed === "string") return parsed;
    } catch {
      // Not valid JSON escapes: fall back to the text between the quotes.
    }
    return value.slice(1, -1);
  }
  if (value.length >= 2 && value.startsWith("'") && value.endsWith("'")) {
    return value.slice(1, -1).replaceAll("''", "'");
  }
  return value;
}

function inlineList(raw: string): string[] {
  const inner = raw.trim().slice(1, -1);
  return splitTopLevel(inner).map(unquote);
}

/**
 * Splits a comma list at commas outside parentheses and quotes, trimming each item and
 * dropping empty ones: `Read, Bash(git add:*, git commit:*)` gives two items.
 */
export function splitTopLevel(text: string): string[] {
  const items: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let current = "";
  for (const ch of text) {
    if (quote !== null) {
      if (ch === quote) quote = null;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === "(" || ch === "[") depth++;
    else if ((ch === ")" || ch === "]") && depth > 0) depth--;
    else if (ch === "," && depth === 0) {
      items.push(current.trim());
      current = "";
      continue;
    }
    current += ch;
  }
  items.push(current.trim());
  return items.filter((item) => item.length > 0);
}

interface Cursor {
  readonly lines: readonly string[];
  index: number;
}

const INDENTED = /^[ \t]/;

/** Reads the indented lines after `key: |` or `key: >` (with `-`/`+` chomping) as one string. */
function blockScalar(cursor: Cursor, folded: boolean): string {
  const parts: string[] = [];
  while (cursor.index + 1 < cursor.lines.length) {
    const next = cursor.lines[cursor.index + 1] ?? "";
    if (next.trim() !== "" && !INDENTED.test(next)) break;
    parts.push(next.trim());
    cursor.index++;
  }
  while (parts.length > 0 && parts[parts.length - 1] === "") parts.pop();
  return folded ? parts.join(" ").replace(/ {2,}/g, " ") : parts.join("\n");
}

/**
 * Reads what follows a bare `key:`: `- item` lines give a list; indented plain lines (what
 * Prettier writes for a long description) give one string joined with spaces, as YAML folds
 * a multi-line plain scalar; nothing gives the empty string.
 */
function blockValue(cursor: Cursor): FrontmatterValue {
  const items: string[] = [];
  while (cursor.index + 1 < cursor.lines.length) {
    const match = LIST_ITEM.exec(cursor.lines[cursor.index + 1] ?? "");
    if (match === null) break;
    items.push(unquote(match[1] ?? ""));
    cursor.index++;
  }
  if (items.length > 0) return items;
  const next = cursor.lines[cursor.index + 1] ?? "";
  return INDENTED.test(next) && next.trim() !== "" ? blockScalar(cursor, true) : "";
}

/**
 * `[a, b]` is a list; `[a] [b]` (an argument hint Claude Code accepts) is not valid YAML and
 * stays the string it is.
 */
function isInlineList(raw: string): boolean {
  if (!raw.startsWith("[") || !raw.endsWith("]")) return false;
  let depth = 0;
  for (let i = 0; i < raw.length; i++) {
    const ch = raw[i];
    if (ch === "[") depth++;
    else if (ch === "]" && --depth === 0 && i < raw.length - 1) return false;
  }
  return depth === 0;
}

function scalarValue(cursor: Cursor, raw: string): FrontmatterValue {
  if (raw === "") return blockValue(cursor);
  if (/^[|>][-+]?$/.test(raw)) return blockScalar(cursor, raw.startsWith(">"));
  if (isInlineList(raw)) return inlineList(raw);
  return unquote(raw);
}

/**
 * Appends a line that is not `key: value` to the field before it, as Claude Code's reader
 * keeps hand-written descriptions whose `<example>` blocks run over several lines.
 */
function continueField(data: Record<string, FrontmatterValue>, key: string, line: string): void {
  const previous = data[key];
  const text = Array.isArray(previous) ? previous.join(", ") : (previous ?? "");
  data[key] = text === "" ? line.trim() : `${text}\n${line.trim()}`;
}

function parseFields(lines: readonly string[], firstLine: number): FrontmatterResult {
  const data: Record<string, FrontmatterValue> = {};
  const cursor: Cursor = { lines, index: 0 };
  let lastKey: string | undefined;
  for (; cursor.index < lines.length; cursor.index++) {
    const line = lines[cursor.index] ?? "";
    if (line.trim() === "" || /^\s*#/.test(line)) continue;
    const match = INDENTED.test(line) ? null : KEY_LINE.exec(line);
    if (match === null) {
      if (lastKey === undefined) {
        return {
          ok: false,
          error: `frontmatter line ${cursor.index + firstLine}: expected "key: value"`,
        };
      }
      continueField(data, lastKey, line);
      continue;
    }
    lastKey = match[1] ?? "";
    data[lastKey] = scalarValue(cursor, (match[2] ?? "").trim());
  }
  return { ok: true, data, body: "" };
}

/** Zero-width characters and byte-order marks that editors and copy-paste leave behind. */
const INVISIBLE = /[\u200B-\u200D\u2060\uFEFF]/g;
const FENCE = /^---[ \t]*$/;

/**
 * Where the frontmatter's lines are: after a `---` line (blank lines before it allowed), or,
 * when a file forgot its opening `---`, from the first line if that is a `key: value` line and a
 * `---` line closes the block within 100 lines. Undefined when there is no frontmatter.
 */
function frontmatterSpan(lines: readonly string[]): { open: number; close: number } | undefined {
  let first = 0;
  while (first < lines.length && (lines[first] ?? "").trim() === "") first++;
  if (first >= lines.length) return undefined;
  const opened = FENCE.test(lines[first] ?? "");
  if (!opened && !KEY_LINE.test(lines[first] ?? "")) return undefined;
  const from = opened ? first + 1 : first;
  const limit = opened ? lines.length : Math.min(lines.length, first + 100);
  for (let i = from; i < limit; i++) {
    const line = lines[i] ?? "";
    if (FENCE.test(line)) return { open: from, close: i };
    // Without an opening fence, only lines that look like YAML may come before the closing one,
    // so a note that starts "Important: ..." above a horizontal rule stays body.
    if (!opened && line.trim() !== "" && !KEY_LINE.test(line) && !INDENTED.test(line)) break;
  }
  return opened ? { open: from, close: -1 } : undefined;
}

/**
 * Splits markdown into frontmatter and body, as leniently as Claude Code reads agent, command
 * and skill files. The frontmatter is a YAML subset between `---` lines: `key: value` (bare,
 * "double" or 'single' quoted; the value is the rest of the line, so `Context: x` inside a
 * description stays text), lists as `[a, b]` or `- item` lines, `|`/`>` block strings,
 * indented continuation lines, `#` comments. Also accepted: a BOM and zero-width characters,
 * blank lines before the first `---`, a missing opening `---` (the file starts with a
 * `key: value` line and a `---` line follows), lines that are not `key: value` (they continue
 * the field before them, joined with a newline; a literal `\n` stays as written), and
 * `argument-hint: [a] [b]` (a string). Text with no frontmatter is all body. Never throws: a block
 * opened with `---` and never closed, or a first line that is not `key: value`, gives
 * `{ ok: false, error }`.
 */
export function parseFrontmatter(text: string): FrontmatterResult {
  const normalized = text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
  const lines = normalized.split("\n");
  const span = frontmatterSpan(lines.map((line) => line.replace(INVISIBLE, "")));
  if (span === undefined) return { ok: true, data: {}, body: normalized };
  if (span.close < 0) return { ok: false, error: "frontmatter opened with --- but never closed" };
  const fields = parseFields(
    lines.slice(span.open, span.close).map((line) => line.replace(INVISIBLE, "")),
    span.open + 1,
  );
  if (!fields.ok) return fields;
  return { ok: true, data: fields.data, body: lines.slice(span.close + 1).join("\n") };
}

/** A field as a list: lists as they are, a string split at top-level commas, absent as `undefined`. */
export function frontmatterList(value: FrontmatterValue | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  if (Array.isArray(value)) return value.filter((item) => item.length > 0);
  return splitTopLevel(value);
}

/** A field as a string: a list is joined with ", ", absent or empty as `undefined`. */
export function frontmatterString(value: FrontmatterValue | undefined): string | undefined {
  if (value === undefined) return undefined;
  const text = Array.isArray(value) ? value.join(", ") : value;
  return text === "" ? undefined : text;
}

/** A field as a boolean: `true`/`yes`/`on` and `false`/`no`/`off` (any case); otherwise `undefined`. */
export function frontmatterBoolean(value: FrontmatterValue | undefined): boolean | undefined {
  if (typeof value !== "string") return undefined;
  const lower = value.toLowerCase();
  if (lower === "true" || lower === "yes" || lower === "on") return true;
  if (lower === "false" || lower === "no" || lower === "off") return false;
  return undefined;
}
