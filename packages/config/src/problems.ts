/** One thing wrong in a settings source, reported and skipped; never fatal. */
export interface SettingsProblem {
  /** The file it was found in, or `env:NAME` for an environment variable. */
  readonly file: string;
  /** 1-based line, when the parser gives it or the key could be found in the text. */
  readonly line?: number;
  /** The dotted key path, e.g. `permissions.allow.2`, when the problem is one key. */
  readonly key?: string;
  readonly message: string;
}

/** Splits a TOML dotted key (`a."b.c" . d`) into its parts, quotes removed. */
function splitDottedKey(key: string): string[] {
  const parts: string[] = [];
  let current = "";
  let quote: string | null = null;
  for (const ch of key) {
    if (quote) {
      if (ch === quote) quote = null;
      else current += ch;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === ".") {
      parts.push(current.trim());
      current = "";
    } else current += ch;
  }
  parts.push(current.trim());
  return parts;
}

const HEADER = /^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$/;
const KEY = /^\s*((?:"[^"]*"|'[^']*'|[A-Za-z0-9_\-.\s])+?)\s*=/;

/**
 * Finds the 1-based line where a key path is written in TOML source: a `key =` line under
 * its table, a dotted key, or the table header itself. Numeric segments (array indexes)
 * are ignored, so an array-of-tables entry maps to its first occurrence. Best effort:
 * undefined when the key cannot be found.
 */
export function findKeyLine(source: string, path: readonly string[]): number | undefined {
  const target = path.filter((p) => !/^\d+$/.test(p)).join("\u0000");
  if (target === "") return undefined;
  const lines = source.split("\n");
  let table: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    const header = HEADER.exec(line);
    if (header?.[1]) {
      table = splitDottedKey(header[1]);
      if (table.join("\u0000") === target) return i + 1;
      continue;
    }
    const key = KEY.exec(line);
    if (key?.[1] && [...table, ...splitDottedKey(key[1])].join("\u0000") === target) return i + 1;
  }
  return undefined;
}
