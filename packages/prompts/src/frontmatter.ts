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

/** Reads the indented lines after `key: |` or `key: >` as one string. */
function blockScalar(cursor: Cursor, folded: boolean): string {
  const parts: string[] = [];
  while (cursor.index + 1 < cursor.lines.length) {
    const next = cursor.lines[cursor.index + 1] ?? "";
    if (next.trim() !== "" && !/^\s/.test(next)) break;
    parts.push(next.trim());
    cursor.index++;
  }
  while (parts.length > 0 && parts[parts.length - 1] === "") parts.pop();
  return folded ? parts.join(" ").replace(/ {2,}/g, " ") : parts.join("\n");
}

/** Reads the `- item` lines after `key:`; an empty list reads as the empty string. */
function blockList(cursor: Cursor): FrontmatterValue {
  const items: string[] = [];
  while (cursor.index + 1 < cursor.lines.length) {
    const match = LIST_ITEM.exec(cursor.lines[cursor.index + 1] ?? "");
    if (match === null) break;
    items.push(unquote(match[1] ?? ""));
    cursor.index++;
  }
  return items.length > 0 ? items : "";
}

function parseFields(lines: readonly string[]): FrontmatterResult {
  const data: Record<string, FrontmatterValue> = {};
  const cursor: Cursor = { lines, index: 0 };
  for (; cursor.index < lines.length; cursor.index++) {
    const line = lines[cursor.index] ?? "";
    if (line.trim() === "" || line.trimStart().startsWith("#")) continue;
    const match = KEY_LINE.exec(line);
    if (match === null) {
      return { ok: false, error: `frontmatter line ${cursor.index + 2}: expected "key: value"` };
    }
    const key = match[1] ?? "";
    const raw = (match[2] ?? "").trim();
    if (raw === "") data[key] = blockList(cursor);
    else if (raw === "|" || raw === ">") data[key] = blockScalar(cursor, raw === ">");
    else if (raw.startsWith("[") && raw.endsWith("]")) data[key] = inlineList(raw);
    else data[key] = unquote(raw);
  }
  return { ok: true, data, body: "" };
}

/**
 * Splits markdown into frontmatter and body. The frontmatter is a YAML subset between a first
 * line `---` and the next `---` line: `key: value` (bare, "double" or 'single' quoted),
 * lists as `[a, b]` or as `- item` lines under `key:`, `|` and `>` block strings, `#`
 * comments. Text without a leading `---` has no frontmatter and is all body. Never throws:
 * an unclosed block or a line it cannot read gives `{ ok: false, error }`.
 */
export function parseFrontmatter(text: string): FrontmatterResult {
  const normalized = text.replace(/^\uFEFF/, "").replace(/\r\n/g, "\n");
  if (!/^---[ \t]*\n/.test(normalized) && normalized.trim() !== "---") {
    return { ok: true, data: {}, body: normalized };
  }
  const lines = normalized.split("\n");
  const close = lines.findIndex((line, i) => i > 0 && /^---[ \t]*$/.test(line));
  if (close < 0) return { ok: false, error: "frontmatter opened with --- but never closed" };
  const fields = parseFields(lines.slice(1, close));
  if (!fields.ok) return fields;
  return { ok: true, data: fields.data, body: lines.slice(close + 1).join("\n") };
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
