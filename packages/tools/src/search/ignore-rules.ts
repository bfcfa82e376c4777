import { globRegex } from "./glob-pattern.js";

/** One line of a .gitignore. */
interface IgnoreRule {
  readonly negate: boolean;
  readonly dirOnly: boolean;
  readonly regex: RegExp;
}

/** The rules of one ignore file, relative to its folder (`""` for the search root). */
export interface IgnoreLevel {
  readonly base: string;
  readonly rules: readonly IgnoreRule[];
}

/** Parses a .gitignore body. Invalid lines are skipped. Never throws. */
export function parseIgnoreFile(text: string): IgnoreRule[] {
  const rules: IgnoreRule[] = [];
  for (const rawLine of text.split(/\r?\n/)) {
    let line = rawLine.replace(/(?<!\\)\s+$/, "");
    if (line === "" || line.startsWith("#")) continue;
    const negate = line.startsWith("!");
    if (negate) line = line.slice(1);
    if (line.startsWith("\\#") || line.startsWith("\\!")) line = line.slice(1);
    const dirOnly = line.endsWith("/");
    try {
      rules.push({ negate, dirOnly, regex: globRegex(line) });
    } catch {
      // A line git would not read either.
    }
  }
  return rules;
}

/**
 * Whether a path (relative to the search root, `/`-separated) is ignored by the stack of
 * ignore files above it: deeper files win, and within a file the last matching line wins.
 */
export function isIgnored(
  levels: readonly IgnoreLevel[],
  relPath: string,
  isDir: boolean,
): boolean {
  for (let l = levels.length - 1; l >= 0; l--) {
    const level = levels[l];
    if (!level) continue;
    if (level.base !== "" && !relPath.startsWith(`${level.base}/`)) continue;
    const local = level.base === "" ? relPath : relPath.slice(level.base.length + 1);
    for (let r = level.rules.length - 1; r >= 0; r--) {
      const rule = level.rules[r];
      if (!rule || (rule.dirOnly && !isDir)) continue;
      if (rule.regex.test(local)) return !rule.negate;
    }
  }
  return false;
}
