import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import { FILE_TYPES } from "./file-types.js";
import { globRegex } from "./glob-pattern.js";
import type { GrepEngineResult, GrepFileResult, GrepLine, GrepQuery } from "./grep-query.js";
import { walkFiles } from "./walk.js";

const RIPGREP_ONLY = [
  { test: /\(\?[a-zA-Z-]+[):]/, what: "inline flags such as (?i)" },
  { test: /\[\[:[a-z]+:\]\]/, what: "POSIX classes such as [[:alpha:]]" },
  { test: /\\[Az]/, what: "\\A and \\z anchors" },
  { test: /\\[pP][A-Za-z]/, what: "one-letter Unicode classes such as \\pL (write \\p{L})" },
];

/** The JS regex of a query, or why it cannot be built. */
export function compileJsRegex(
  query: GrepQuery,
): { ok: true; regex: RegExp } | { ok: false; error: string } {
  for (const rule of RIPGREP_ONLY) {
    if (rule.test.test(query.pattern)) {
      return {
        ok: false,
        error: `Invalid regex pattern ${JSON.stringify(query.pattern)}: ripgrep is not available, and the built-in search does not support ${rule.what}.`,
      };
    }
  }
  const flags = `u${query.caseInsensitive ? "i" : ""}${query.multiline ? "gms" : ""}`;
  try {
    return { ok: true, regex: new RegExp(query.pattern, flags) };
  } catch (error) {
    return {
      ok: false,
      error: `Invalid regex pattern ${JSON.stringify(query.pattern)}: ${(error as Error).message}`,
    };
  }
}

function matchedLinesSingle(lines: readonly string[], regex: RegExp): Set<number> {
  const matched = new Set<number>();
  lines.forEach((line, i) => {
    if (regex.test(line)) matched.add(i);
  });
  return matched;
}

function lineIndexAt(starts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if ((starts[mid] ?? 0) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

function matchedLinesMulti(text: string, lines: readonly string[], regex: RegExp): Set<number> {
  const starts: number[] = [];
  let offset = 0;
  for (const line of lines) {
    starts.push(offset);
    offset += line.length + 1;
  }
  const matched = new Set<number>();
  regex.lastIndex = 0;
  for (let m = regex.exec(text); m !== null; m = regex.exec(text)) {
    if (m[0] === "") {
      regex.lastIndex++;
      continue;
    }
    const first = lineIndexAt(starts, m.index);
    const lastChar = m[0].endsWith("\n") ? m.index + m[0].length - 2 : m.index + m[0].length - 1;
    for (let i = first; i <= lineIndexAt(starts, lastChar); i++) matched.add(i);
  }
  return matched;
}

function withContext(lines: readonly string[], matched: Set<number>, query: GrepQuery): GrepLine[] {
  const shown = new Set<number>();
  for (const index of matched) {
    for (
      let i = Math.max(0, index - query.before);
      i <= Math.min(lines.length - 1, index + query.after);
      i++
    )
      shown.add(i);
  }
  return [...shown]
    .sort((a, b) => a - b)
    .map((i) => ({ line: i + 1, match: matched.has(i), text: lines[i] ?? "" }));
}

function typeFilter(query: GrepQuery): ((rel: string) => boolean) | { error: string } {
  if (!query.type) return () => true;
  const globs = FILE_TYPES[query.type];
  if (!globs)
    return {
      error: `Unknown file type: ${query.type} (the built-in search knows ${Object.keys(FILE_TYPES).join(", ")})`,
    };
  const types = globs.map((g) => globRegex(g));
  return (rel) => types.some((t) => t.test(basename(rel)));
}

async function searchFile(
  path: string,
  regex: RegExp,
  query: GrepQuery,
): Promise<GrepFileResult | null> {
  const bytes = await readFile(path).catch(() => null);
  if (!bytes || bytes.includes(0)) return null;
  const text = bytes.toString("utf8");
  const lines = text.split("\n");
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  const matched = query.multiline
    ? matchedLinesMulti(text, lines, regex)
    : matchedLinesSingle(lines, regex);
  if (matched.size === 0) return null;
  const shown = query.mode === "content" ? withContext(lines, matched, query) : [];
  return { path, lines: shown, count: matched.size };
}

/**
 * The JS engine: walks like ripgrep (ignore files, hidden entries skipped), skips binary files
 * and searches with a JS RegExp, giving the same results as {@link grepWithRipgrep} for
 * patterns both accept. Never rejects for an expected problem.
 */
export async function grepWithJs(query: GrepQuery, signal: AbortSignal): Promise<GrepEngineResult> {
  const compiled = compileJsRegex(query);
  if (!compiled.ok) return compiled;
  const filter = typeFilter(query);
  if (typeof filter !== "function") return { ok: false, error: filter.error };
  const override = query.glob ? globRegex(query.glob) : undefined;
  const paths = query.isFile
    ? [query.searchPath]
    : (await walkFiles(query.searchPath, signal, override))
        .filter((f) => filter(f.rel))
        .map((f) => f.abs);
  const files: GrepFileResult[] = [];
  if (signal.aborted) return { ok: false, error: "Search cancelled." };
  for (const path of paths) {
    if (signal.aborted) return { ok: false, error: "Search cancelled." };
    const found = await searchFile(path, compiled.regex, query);
    if (found) files.push(found);
  }
  return { ok: true, files };
}
