import type { RankedDefinition } from "./rank.js";

/** Characters per token the map is measured with (the context estimator's ratio). */
export const MAP_CHARS_PER_TOKEN = 4;

/** The first line of the map section. */
export const REPO_MAP_HEADER =
  "Repository map: the most referenced definitions in this project, by file (line: signature). It was built when the session started or last compacted; read a file before relying on it.";

/** The tokens a text is counted as against the map's budget. */
export function mapTokens(text: string): number {
  return Math.ceil(text.length / MAP_CHARS_PER_TOKEN);
}

/** The map text for the first `count` ranked definitions: files by importance, lines in order. */
function renderTop(ranked: readonly RankedDefinition[], count: number): string {
  const byFile = new Map<string, RankedDefinition[]>();
  for (const r of ranked.slice(0, count)) {
    const list = byFile.get(r.path) ?? [];
    list.push(r);
    byFile.set(r.path, list);
  }
  const out = [REPO_MAP_HEADER];
  for (const [path, defs] of byFile) {
    out.push("", `${path}:`);
    for (const r of [...defs].sort((a, b) => a.def.line - b.def.line)) {
      const indent = r.def.kind === "method" ? "    " : "  ";
      out.push(`${indent}${r.def.line}: ${r.def.signature}`);
    }
  }
  return out.join("\n");
}

/** A rendered map: its text, its size in tokens, and how many files and definitions it shows. */
export interface RenderedMap {
  readonly text: string;
  readonly tokens: number;
  readonly files: number;
  readonly definitions: number;
}

/**
 * The largest prefix of the ranked definitions whose rendering fits `budgetTokens`
 * (found by bisection), grouped by file in order of each file's best definition. Empty
 * text when the budget is 0 or not even one definition fits. Deterministic.
 */
export function renderMap(ranked: readonly RankedDefinition[], budgetTokens: number): RenderedMap {
  const empty = { text: "", tokens: 0, files: 0, definitions: 0 };
  if (budgetTokens <= 0 || ranked.length === 0) return empty;
  let low = 0;
  // Each definition takes a line of at least a few characters, so no more than this fit.
  let high = Math.min(ranked.length, budgetTokens * MAP_CHARS_PER_TOKEN);
  let best = "";
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    const text = renderTop(ranked, mid);
    if (mapTokens(text) <= budgetTokens) {
      low = mid;
      best = text;
    } else high = mid - 1;
  }
  if (low === 0) return empty;
  if (best === "") best = renderTop(ranked, low);
  const files = new Set(ranked.slice(0, low).map((r) => r.path)).size;
  return { text: best, tokens: mapTokens(best), files, definitions: low };
}
