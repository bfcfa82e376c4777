import { stat } from "node:fs/promises";
import { globRegex } from "./glob-pattern.js";
import { runRipgrep } from "./ripgrep.js";
import { walkFiles } from "./walk.js";

/** Files matching a glob, newest first, or why the search failed. */
export type GlobResult =
  | { readonly ok: true; readonly paths: string[] }
  | { readonly ok: false; readonly error: string };

function compileGlob(pattern: string): { ok: true; regex: RegExp } | { ok: false; error: string } {
  try {
    return { ok: true, regex: globRegex(pattern) };
  } catch (error) {
    return {
      ok: false,
      error: `Invalid glob ${JSON.stringify(pattern)}: ${(error as Error).message}`,
    };
  }
}

/**
 * `rg --files --sortr modified` in `folder`, filtered by the glob: absolute paths, newest
 * first. The glob is matched here rather than with rg's `--glob` (which would list ignored
 * files it names), so both engines share one matcher.
 */
export async function globWithRipgrep(
  rg: string,
  pattern: string,
  folder: string,
  signal: AbortSignal,
): Promise<GlobResult> {
  const glob = compileGlob(pattern);
  if (!glob.ok) return glob;
  const result = await runRipgrep(
    rg,
    ["--no-config", "--files", "--sortr", "modified"],
    folder,
    signal,
  );
  if (result.code === 2 && result.stdout === "") {
    return { ok: false, error: `Glob failed: ${result.stderr.trim()}` };
  }
  if (result.code === null) return { ok: false, error: "ripgrep was stopped before it finished." };
  const paths: string[] = [];
  for (const line of result.stdout.split("\n")) {
    if (line !== "" && glob.regex.test(line)) paths.push(`${folder}/${line}`);
  }
  return { ok: true, paths };
}

/** The JS engine: the same walk as ripgrep, the same glob matcher, newest first. */
export async function globWithJs(
  pattern: string,
  folder: string,
  signal: AbortSignal,
): Promise<GlobResult> {
  const glob = compileGlob(pattern);
  if (!glob.ok) return glob;
  const files = (await walkFiles(folder, signal)).filter((f) => glob.regex.test(f.rel));
  if (signal.aborted) return { ok: false, error: "Search cancelled." };
  const times = await Promise.all(
    files.map((f) =>
      stat(f.abs).then(
        (s) => s.mtimeMs,
        () => 0,
      ),
    ),
  );
  const order = files.map((f, i) => ({ path: f.abs, time: times[i] ?? 0 }));
  order.sort((a, b) => b.time - a.time || (a.path < b.path ? -1 : 1));
  return { ok: true, paths: order.map((o) => o.path) };
}
