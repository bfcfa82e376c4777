import type { Definition, FileTags } from "./tags.js";

/** What the session is about: files it read or wrote, and text the user wrote. */
export interface RepoMapFocus {
  /** Project-relative paths the session read or wrote; they and their neighbours rise. */
  readonly files?: readonly string[];
  /** The user's prompts (or any text): identifiers and file names in it rise. */
  readonly text?: string;
}

/** One definition with its score, highest first in {@link rankDefinitions}'s result. */
export interface RankedDefinition {
  readonly path: string;
  readonly def: Definition;
  readonly score: number;
}

const DAMPING = 0.85;
const ITERATIONS = 40;
const TOUCHED_WEIGHT = 100;
const MENTIONED_WEIGHT = 10;

interface Edge {
  readonly from: string;
  readonly to: string;
  readonly name: string;
  readonly weight: number;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Identifiers of three or more characters in a text. */
export function identifiersIn(text: string): Set<string> {
  return new Set(text.match(/[A-Za-z_$][\w$]{2,}/g) ?? []);
}

function nameWeight(name: string, definers: number, mentioned: ReadonlySet<string>): number {
  let weight = 1;
  if (mentioned.has(name)) weight *= MENTIONED_WEIGHT;
  // Long, distinctive names (camelCase, snake_case) say more than short common ones.
  if (name.length >= 8 && /[a-z][A-Z]|_[a-z]|^[A-Z][a-z]/.test(name)) weight *= 10;
  if (name.startsWith("_")) weight *= 0.1;
  if (definers > 5) weight *= 0.1;
  return weight;
}

function buildEdges(files: ReadonlyMap<string, FileTags>, mentioned: ReadonlySet<string>): Edge[] {
  const definers = new Map<string, string[]>();
  for (const [path, tags] of files) {
    for (const def of tags.defs) {
      const list = definers.get(def.name) ?? [];
      if (list[list.length - 1] !== path) list.push(path);
      definers.set(def.name, list);
    }
  }
  const edges: Edge[] = [];
  for (const [from, tags] of files) {
    for (const [name, count] of Object.entries(tags.refs)) {
      const to = definers.get(name);
      if (!to) continue;
      const weight = nameWeight(name, to.length, mentioned) * Math.sqrt(count);
      for (const target of to) if (target !== from) edges.push({ from, to: target, name, weight });
    }
  }
  return edges;
}

function personalisation(
  paths: readonly string[],
  files: ReadonlyMap<string, FileTags>,
  focus: RepoMapFocus,
  mentioned: ReadonlySet<string>,
): Map<string, number> {
  const touched = new Set(focus.files ?? []);
  const text = focus.text ?? "";
  const p = new Map<string, number>();
  let total = 0;
  for (const path of paths) {
    let weight = 1;
    if (touched.has(path)) weight += TOUCHED_WEIGHT;
    const base = path.slice(path.lastIndexOf("/") + 1).replace(/\.[^.]+$/, "");
    if (text.includes(path) || (base.length >= 4 && mentioned.has(base)))
      weight += MENTIONED_WEIGHT;
    if (files.get(path)?.defs.some((d) => mentioned.has(d.name))) weight += MENTIONED_WEIGHT;
    p.set(path, weight);
    total += weight;
  }
  for (const [path, weight] of p) p.set(path, weight / total);
  return p;
}

function pageRank(
  paths: readonly string[],
  edges: readonly Edge[],
  p: ReadonlyMap<string, number>,
): { rank: Map<string, number>; out: Map<string, number> } {
  const out = new Map<string, number>();
  for (const e of edges) out.set(e.from, (out.get(e.from) ?? 0) + e.weight);
  let rank = new Map(p);
  for (let i = 0; i < ITERATIONS; i++) {
    const next = new Map<string, number>();
    let dangling = 0;
    for (const path of paths) if (!out.has(path)) dangling += rank.get(path) ?? 0;
    for (const path of paths)
      next.set(path, (1 - DAMPING + DAMPING * dangling) * (p.get(path) ?? 0));
    for (const e of edges) {
      const share = ((rank.get(e.from) ?? 0) * e.weight) / (out.get(e.from) ?? 1);
      next.set(e.to, (next.get(e.to) ?? 0) + DAMPING * share);
    }
    rank = next;
  }
  return { rank, out };
}

/**
 * Ranks every definition: files by PageRank over cross-file references (weighted by how
 * distinctive each name is, personalised toward the focus), then each definition by the
 * rank its referencing files pass to it. Unreferenced definitions follow, by their file's
 * rank. The same input gives the same order (ties broken by path, line and name).
 */
export function rankDefinitions(
  files: ReadonlyMap<string, FileTags>,
  focus: RepoMapFocus = {},
): RankedDefinition[] {
  const paths = [...files.keys()].sort(cmp);
  const mentioned = identifiersIn(focus.text ?? "");
  const edges = buildEdges(files, mentioned);
  const p = personalisation(paths, files, focus, mentioned);
  const { rank, out } = pageRank(paths, edges, p);
  const incoming = new Map<string, number>();
  for (const e of edges) {
    const key = `${e.to}\0${e.name}`;
    const share = ((rank.get(e.from) ?? 0) * e.weight) / (out.get(e.from) ?? 1);
    incoming.set(key, (incoming.get(key) ?? 0) + share);
  }
  const ranked: RankedDefinition[] = [];
  for (const path of paths) {
    const fileRank = rank.get(path) ?? 0;
    for (const def of files.get(path)?.defs ?? []) {
      let score = (incoming.get(`${path}\0${def.name}`) ?? 0) + fileRank * 1e-3;
      // A name the user wrote matters as if its own file referenced it.
      if (mentioned.has(def.name)) score = (score + fileRank) * MENTIONED_WEIGHT;
      ranked.push({ path, def, score });
    }
  }
  return ranked.sort(
    (a, b) =>
      b.score - a.score ||
      cmp(a.path, b.path) ||
      a.def.line - b.def.line ||
      cmp(a.def.name, b.def.name),
  );
}
