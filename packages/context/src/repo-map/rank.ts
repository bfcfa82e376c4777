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
const ITERATIONS = 30;
/** Stop iterating once no file's rank moves by more than this. */
const TOLERANCE = 1e-9;
/** A name defined in more files than this (`constructor`, `dispose`) ties nothing together. */
const MAX_DEFINERS = 32;
const TOUCHED_WEIGHT = 100;
const MENTIONED_WEIGHT = 10;

/** A reference from one file to a name another file defines (indices into the sorted paths). */
interface Edge {
  readonly from: number;
  readonly to: number;
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

function buildEdges(
  paths: readonly string[],
  files: ReadonlyMap<string, FileTags>,
  mentioned: ReadonlySet<string>,
): Edge[] {
  const definers = new Map<string, number[]>();
  paths.forEach((path, i) => {
    for (const def of files.get(path)?.defs ?? []) {
      const list = definers.get(def.name);
      if (!list) definers.set(def.name, [i]);
      else if (list[list.length - 1] !== i) list.push(i);
    }
  });
  const edges: Edge[] = [];
  paths.forEach((path, from) => {
    const refs = files.get(path)?.refs ?? {};
    for (const name in refs) {
      const to = definers.get(name);
      if (!to || to.length > MAX_DEFINERS) continue;
      const weight = nameWeight(name, to.length, mentioned) * Math.sqrt(refs[name] as number);
      for (const target of to) if (target !== from) edges.push({ from, to: target, name, weight });
    }
  });
  return edges;
}

function personalisation(
  paths: readonly string[],
  files: ReadonlyMap<string, FileTags>,
  focus: RepoMapFocus,
  mentioned: ReadonlySet<string>,
): Float64Array {
  const touched = new Set(focus.files ?? []);
  const text = focus.text ?? "";
  const p = new Float64Array(paths.length);
  let total = 0;
  paths.forEach((path, i) => {
    let weight = 1;
    if (touched.has(path)) weight += TOUCHED_WEIGHT;
    if (mentioned.size > 0) {
      const base = path.slice(path.lastIndexOf("/") + 1).replace(/\.[^.]+$/, "");
      if (text.includes(path) || (base.length >= 4 && mentioned.has(base)))
        weight += MENTIONED_WEIGHT;
      if (files.get(path)?.defs.some((d) => mentioned.has(d.name))) weight += MENTIONED_WEIGHT;
    }
    p[i] = weight;
    total += weight;
  });
  for (let i = 0; i < p.length; i++) p[i] = (p[i] as number) / total;
  return p;
}

/** Per-file PageRank over the edges (merged per file pair), with `p` as the teleport vector. */
function pageRank(
  p: Float64Array,
  edges: readonly Edge[],
): { rank: Float64Array; out: Float64Array } {
  const n = p.length;
  const out = new Float64Array(n);
  // Edges come grouped by their file: merge each file's edges per target in a scratch row
  // (first-touch order, as a map keyed by pair would keep them).
  const from = new Int32Array(edges.length);
  const to = new Int32Array(edges.length);
  const share = new Float64Array(edges.length);
  const scratch = new Float64Array(n);
  const touched: number[] = [];
  let k = 0;
  const flush = (source: number) => {
    for (const target of touched) {
      from[k] = source;
      to[k] = target;
      share[k] = (scratch[target] as number) / (out[source] as number);
      scratch[target] = 0;
      k++;
    }
    touched.length = 0;
  };
  for (let e = 0; e < edges.length; e++) {
    const edge = edges[e] as Edge;
    if (e > 0 && (edges[e - 1] as Edge).from !== edge.from) flush((edges[e - 1] as Edge).from);
    out[edge.from] = (out[edge.from] as number) + edge.weight;
    if (scratch[edge.to] === 0) touched.push(edge.to);
    scratch[edge.to] = (scratch[edge.to] as number) + edge.weight;
  }
  if (edges.length > 0) flush((edges[edges.length - 1] as Edge).from);
  let rank = Float64Array.from(p);
  for (let iter = 0; iter < ITERATIONS; iter++) {
    let dangling = 0;
    for (let i = 0; i < n; i++) if (out[i] === 0) dangling += rank[i] as number;
    const next = new Float64Array(n);
    for (let i = 0; i < n; i++) next[i] = (1 - DAMPING + DAMPING * dangling) * (p[i] as number);
    for (let e = 0; e < k; e++) {
      const t = to[e] as number;
      next[t] =
        (next[t] as number) + DAMPING * (rank[from[e] as number] as number) * (share[e] as number);
    }
    let moved = 0;
    for (let i = 0; i < n; i++)
      moved = Math.max(moved, Math.abs((next[i] as number) - (rank[i] as number)));
    rank = next;
    if (moved < TOLERANCE) break;
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
  const edges = buildEdges(paths, files, mentioned);
  const p = personalisation(paths, files, focus, mentioned);
  const { rank, out } = pageRank(p, edges);
  // What each definition receives: its referencing files' rank, split by edge weight.
  const incoming: Array<Map<string, number> | undefined> = new Array(paths.length);
  for (const e of edges) {
    const share = ((rank[e.from] as number) * e.weight) / (out[e.from] as number);
    const into = incoming[e.to] ?? new Map<string, number>();
    into.set(e.name, (into.get(e.name) ?? 0) + share);
    incoming[e.to] = into;
  }
  // `file` is the index in the sorted paths, so ties break by path without comparing strings.
  const ranked: Array<RankedDefinition & { readonly file: number }> = [];
  paths.forEach((path, file) => {
    const fileRank = rank[file] as number;
    for (const def of files.get(path)?.defs ?? []) {
      let score = (incoming[file]?.get(def.name) ?? 0) + fileRank * 1e-3;
      // A name the user wrote matters as if its own file referenced it.
      if (mentioned.has(def.name)) score = (score + fileRank) * MENTIONED_WEIGHT;
      ranked.push({ path, def, score, file });
    }
  });
  ranked.sort(
    (a, b) =>
      b.score - a.score ||
      a.file - b.file ||
      a.def.line - b.def.line ||
      cmp(a.def.name, b.def.name),
  );
  return ranked.map(({ path, def, score }) => ({ path, def, score }));
}
