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

function signatureOf(lines: readonly string[], row: number): string {
  const text = (lines[row] ?? "").trim();
  return text.length > MAX_SIGNATURE_CHARS ? `${text.slice(0, MAX_SIGNATURE_CHARS - 1)}…` : text;
}

/**
 * The definitions and references of one source text, by the language's tag query. A text
 * that does not parse cleanly still yields what tree-sitter recovered. Never throws for bad
 * input.
 */
export function extractTags(source: string, language: LoadedLanguage): FileTags {
  const tree = language.parser.parse(source);
  if (!tree) return { defs: [], refs: {} };
  const lines = source.split("\n");
  const defs = new Map<string, Definition>();
  const refs: Record<string, number> = Object.create(null);
  // Several patterns can tag one node (an imported type is an import and a type): count it once.
  const counted = new Set<number>();
  try {
    for (const match of language.query.matches(tree.rootNode)) {
      const name = match.captures.find((c) => c.name === "name")?.node;
      const role = match.captures.find((c) => c.name.includes("."));
      if (!name || !role) continue;
      const text = name.text;
      if (text.length < 2 || text.length > 80) continue;
      const [what, kindName = ""] = role.name.split(".");
      if (what === "reference") {
        if (counted.has(name.startIndex)) continue;
        counted.add(name.startIndex);
        refs[text] = (refs[text] ?? 0) + 1;
        continue;
      }
      const kind = KINDS[kindName];
      if (what !== "definition" || !kind) continue;
      const row = role.node.startPosition.row;
      const key = `${row}:${text}`;
      const seen = defs.get(key);
      if (seen && PRIORITY[seen.kind] >= PRIORITY[kind]) continue;
      const signature = signatureOf(lines, row);
      defs.set(key, { name: text, kind, line: row + 1, signature });
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
