import { dirname, basename, join } from "node:path";
import type { GrepEngineResult, GrepFileResult, GrepLine, GrepQuery } from "./grep-query.js";
import { runRipgrep } from "./ripgrep.js";

/** ripgrep's arguments for a query (run in the search folder, or the file's folder). */
export function ripgrepArgs(query: GrepQuery): string[] {
  const args = ["--no-config", "--color", "never", "--no-heading", "--with-filename", "--null"];
  if (query.mode === "files_with_matches") args.push("--files-with-matches");
  else if (query.mode === "count") args.push("--count");
  else {
    args.push("--line-number");
    if (query.before > 0) args.push("-B", String(query.before));
    if (query.after > 0) args.push("-A", String(query.after));
  }
  if (query.caseInsensitive) args.push("-i");
  if (query.multiline) args.push("-U", "--multiline-dotall");
  if (query.glob) args.push("--glob", query.glob);
  if (query.type) args.push("--type", query.type);
  args.push("-e", query.pattern);
  if (query.isFile) args.push("--", basename(query.searchPath));
  return args;
}

function parseContent(stdout: string, cwd: string): GrepFileResult[] {
  const byFile = new Map<string, GrepLine[]>();
  for (const raw of stdout.split("\n")) {
    const nul = raw.indexOf("\0");
    if (nul < 0) continue;
    const rest = raw.slice(nul + 1);
    const found = /^(\d+)([:-])/.exec(rest);
    if (!found) continue;
    const path = join(cwd, raw.slice(0, nul));
    const lines = byFile.get(path) ?? [];
    if (lines.length === 0) byFile.set(path, lines);
    lines.push({
      line: Number(found[1]),
      match: found[2] === ":",
      text: rest.slice(found[0].length),
    });
  }
  return [...byFile].map(([path, lines]) => ({
    path,
    lines,
    count: lines.filter((l) => l.match).length,
  }));
}

function parseListing(stdout: string, cwd: string, counted: boolean): GrepFileResult[] {
  // With --null, a listing ends each path with NUL; a count puts NUL between path and count.
  if (!counted)
    return stdout
      .split("\0")
      .filter((p) => p !== "")
      .map((p) => ({ path: join(cwd, p), lines: [], count: 0 }));
  const files: GrepFileResult[] = [];
  for (const raw of stdout.split("\n")) {
    const nul = raw.indexOf("\0");
    if (nul < 0) continue;
    files.push({
      path: join(cwd, raw.slice(0, nul)),
      lines: [],
      count: Number(raw.slice(nul + 1)),
    });
  }
  return files;
}

/**
 * Runs a query with ripgrep. Exit 2 with a regex error becomes a clear pattern error; other
 * exit-2 runs keep what was found (unreadable files are skipped). Rejects when rg cannot start.
 */
export async function grepWithRipgrep(
  rg: string,
  query: GrepQuery,
  signal: AbortSignal,
): Promise<GrepEngineResult> {
  const cwd = query.isFile ? dirname(query.searchPath) : query.searchPath;
  const result = await runRipgrep(rg, ripgrepArgs(query), cwd, signal);
  if (
    result.code === 2 &&
    /regex parse error|error parsing|unrecognized file type/i.test(result.stderr)
  ) {
    const detail = result.stderr.trim().split("\n").slice(-3).join(" ").replace(/\s+/g, " ");
    const what = /unrecognized file type/i.test(result.stderr)
      ? "Unknown file type"
      : `Invalid regex pattern ${JSON.stringify(query.pattern)}`;
    return { ok: false, error: `${what}: ${detail}` };
  }
  if (result.code === null) return { ok: false, error: "ripgrep was stopped before it finished." };
  if (query.mode === "content") return { ok: true, files: parseContent(result.stdout, cwd) };
  return { ok: true, files: parseListing(result.stdout, cwd, query.mode === "count") };
}
