import type { QueryMatch } from "web-tree-sitter";
import type { LoadedLanguage } from "./languages.js";

/** What a definition is. */
export type DefinitionKind =
  | "class"
  | "interface"
  | "type"
  | "function"
  | "method"
  | "constant"
  | "module"
  | "macro";

/** One definition in a file: its name, kind, line (1-based) and signature line. */
export interface Definition {
  readonly name: string;
  readonly kind: DefinitionKind;
  readonly line: number;
  /** The definition's first source line, trimmed and cut to {@link MAX_SIGNATURE_CHARS}. */
  readonly signature: string;
}

/** The tags of one file: its definitions in source order, and how often it names each identifier. */
export interface FileTags {
  readonly defs: readonly Definition[];
  readonly refs: Readonly<Record<string, number>>;
}

/** Longest signature kept; longer ones end with "…". */
export const MAX_SIGNATURE_CHARS = 120;

const KINDS: Record<string, DefinitionKind> = {
  class: "class",
  interface: "interface",
  type: "type",
  function: "function",
  method: "method",
  constant: "constant",
  module: "module",
  macro: "macro",
};

// When two patterns tag the same name on the same line, the more specific kind wins.
const PRIORITY: Record<DefinitionKind, number> = {
  method: 7,
  function: 6,
  class: 5,
  interface: 4,
  type: 3,
  macro: 2,
  module: 1,
  constant: 0,
};

/**
 * A copy of `text` that does not keep the string it was cut from alive. V8 represents a
 * slice of 13 characters or more as a view into its parent, so a signature or name cut
 * from a file's source would keep the whole source in memory as long as the tags live (the
 * sources of every parsed file, some 22 MB on the bench's codebase). Concatenating and
 * slicing again makes the view's parent a new string as long as the copy.
 */
export function detached(text: string): string {
  return text.length < 13 ? text : ` ${text}`.slice(1);
}

/** The source line at `index`, trimmed and cut to {@link MAX_SIGNATURE_CHARS}, detached. */
function signatureAt(source: string, index: number): string {
  const start = source.lastIndexOf("\n", index - 1) + 1;
  const end = source.indexOf("\n", index);
  const text = source.slice(start, end < 0 ? source.length : end).trim();
  return detached(
    text.length > MAX_SIGNATURE_CHARS ? `${text.slice(0, MAX_SIGNATURE_CHARS - 1)}…` : text,
  );
}

/**
 * The query runs over the text in windows of this many characters (a match crossing a
 * window's edge comes back in both and is counted once): the matches of one window are
 * garbage before the next, where those of a whole 200 KB file (tens of thousands of match
 * objects, and their buffer in tree-sitter's wasm memory) outlived the young generation and
 * raised each thread's memory.
 */
export const QUERY_WINDOW_CHARS = 16_384;

/**
 * The definitions and references of one source text, by the language's tag query. A text
 * that does not parse cleanly still yields what tree-sitter recovered. Never throws for bad
 * input.
 */
export function extractTags(source: string, language: LoadedLanguage): FileTags {
  const tree = language.parser.parse(source);
  if (!tree) return { defs: [], refs: {} };
  const defs = new Map<string, Definition>();
  const refs: Record<string, number> = Object.create(null);
  // Several patterns can tag one node (an imported type is an import and a type), and a match
  // across a window's edge comes back twice: count each name node once.
  const counted = new Set<number>();
  const take = (match: QueryMatch) => {
    const name = match.captures.find((c) => c.name === "name")?.node;
    const role = match.captures.find((c) => c.name.includes("."));
    if (!name || !role) return;
    const text = name.text;
    if (text.length < 2 || text.length > 80) return;
    const [what, kindName = ""] = role.name.split(".");
    if (what === "reference") {
      if (counted.has(name.startIndex)) return;
      counted.add(name.startIndex);
      refs[text] = (refs[text] ?? 0) + 1;
      return;
    }
    const kind = KINDS[kindName];
    if (what !== "definition" || !kind) return;
    const row = role.node.startPosition.row;
    const key = `${row}:${text}`;
    const seen = defs.get(key);
    if (seen && PRIORITY[seen.kind] >= PRIORITY[kind]) return;
    const signature = signatureAt(source, role.node.startIndex);
    defs.set(key, { name: detached(text), kind, line: row + 1, signature });
  };
  try {
    const root = tree.rootNode;
    for (let start = 0; start < Math.max(source.length, 1); start += QUERY_WINDOW_CHARS) {
      const endIndex = Math.min(start + QUERY_WINDOW_CHARS, source.length);
      const window = source.length > QUERY_WINDOW_CHARS ? { startIndex: start, endIndex } : {};
      for (const match of language.query.matches(root, window)) take(match);
    }
  } finally {
    tree.delete();
  }
  const ordered = [...defs.values()].sort((a, b) => a.line - b.line || cmp(a.name, b.name));
  return { defs: ordered, refs: { ...refs } };
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
