import type { Node } from "web-tree-sitter";

/** Node types whose value depends on the shell's state at run time. */
const DYNAMIC = new Set([
  "simple_expansion",
  "expansion",
  "command_substitution",
  "process_substitution",
  "arithmetic_expansion",
  "ansi_c_string",
  "translated_string",
  "brace_expression",
]);

/**
 * The value of one shell word with quotes and escapes removed, as the shell would pass it,
 * or the word's source text when any part of it is expanded at run time.
 */
export function wordValue(node: Node): string {
  const value = staticValue(node);
  return value ?? node.text;
}

/** True when a word (as returned by {@link wordValue}) may change at run time. */
export function isDynamicWord(word: string): boolean {
  return word.includes("$") || word.includes("`") || word.includes("<(") || word.includes(">(");
}

function staticValue(node: Node): string | undefined {
  if (DYNAMIC.has(node.type)) return undefined;
  switch (node.type) {
    case "word":
    case "command_name":
      if (node.type === "command_name") return concatChildren(node);
      return unescapeBare(node.text);
    case "number":
    case "file_descriptor":
    case "variable_name":
      return node.text;
    case "raw_string":
      return node.text.slice(1, -1);
    case "string":
      return doubleQuoted(node);
    case "concatenation":
      return concatChildren(node);
    default:
      return undefined;
  }
}

function concatChildren(node: Node): string | undefined {
  let out = "";
  for (const child of node.namedChildren) {
    const v = staticValue(child);
    if (v === undefined) return undefined;
    out += v;
  }
  return out;
}

function doubleQuoted(node: Node): string | undefined {
  for (const child of node.namedChildren) {
    if (child.type !== "string_content") return undefined;
  }
  return node.text.slice(1, -1).replace(/\\([$`"\\\n])/g, (_m, c: string) => (c === "\n" ? "" : c));
}

function unescapeBare(text: string): string {
  return text.replace(/\\(.|\n)/g, (_m, c: string) => (c === "\n" ? "" : c));
}
