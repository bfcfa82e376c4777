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

/**
 * The references from each file to names other files define, as columns (indices into the
 * sorted paths and into `names`), grouped by `from`: a large project has hundreds of
 * thousands of them, and columns take a fraction of the memory of an object per edge.
 */
interface Edges {
  readonly count: number;
  readonly from: Int32Array;
  readonly to: Int32Array;
  readonly name: Int32Array;
  readonly weight: Float64Array;
  /** Each defined name's index (the `name` column). */
  readonly ids: ReadonlyMap<string, number>;
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

/** Appends to typed columns, doubling them as they fill. */
class Columns {
  count = 0;
  from = new Int32Array(1024);
  to = new Int32Array(1024);
  name = new Int32Array(1024);
  weight = new Float64Array(1024);

  push(from: number, to: number, name: number, weight: number): void {
    if (this.count === this.from.length) this.grow();
    this.from[this.count] = from;
    this.to[this.count] = to;
    this.name[this.count] = name;
    this.weight[this.count] = weight;
    this.count++;
  }

  private grow(): void {
    const size = this.from.length * 2;
    const copy = <T extends Int32Array | Float64Array>(old: T, fresh: T): T => {
      fresh.set(old);
      return fresh;
    };
    this.from = copy(this.from, new Int32Array(size));
    this.to = copy(this.to, new Int32Array(size));
    this.name = copy(this.name, new Int32Array(size));
    this.weight = copy(this.weight, new Float64Array(size));
  }
}

function buildEdges(
  paths: readonly string[],
  files: ReadonlyMap<string, FileTags>,
  mentioned: ReadonlySet<string>,
): Edges {
  const definers = new Map<string, { readonly id: number; readonly files: number[] }>();
  paths.forEach((path, i) => {
    for (const def of files.get(path)?.defs ?? []) {
      const entry = definers.get(def.name);
      if (!entry) definers.set(def.name, { id: definers.size, files: [i] });
      else if (entry.files[entry.files.length - 1] !== i) entry.files.push(i);
    }
  });
  const edges = new Columns();
  paths.forEach((path, from) => {
    const refs = files.get(path)?.refs ?? {};
    for (const name in refs) {
      const entry = definers.get(name);
      if (!entry || entry.files.length > MAX_DEFINERS) continue;
      const weight =
        nameWeight(name, entry.files.length, mentioned) * Math.sqrt(refs[name] as number);
      for (const target of entry.files)
        if (target !== from) edges.push(from, target, entry.id, weight);
    }
  });
  const ids = new Map([...definers].map(([name, entry]) => [name, entry.id]));
  const { count, from, to, name, weight } = edges;
  return { count, from, to, name, weight, ids };
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
function pageRank(p: Float64Array, edges: Edges): { rank: Float64Array; out: Float64Array } {
  const n = p.length;
  const out = new Float64Array(n);
  // Edges come grouped by their file: merge each file's edges per target in a scratch row
  // (first-touch order, as a map keyed by pair would keep them).
  const from = new Int32Array(edges.count);
  const to = new Int32Array(edges.count);
  const share = new Float64Array(edges.count);
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
  for (let e = 0; e < edges.count; e++) {
    const source = edges.from[e] as number;
    const target = edges.to[e] as number;
    const weight = edges.weight[e] as number;
    if (e > 0 && edges.from[e - 1] !== source) flush(edges.from[e - 1] as number);
    out[source] = (out[source] as number) + weight;
    if (scratch[target] === 0) touched.push(target);
    scratch[target] = (scratch[target] as number) + weight;
  }
  if (edges.count > 0) flush(edges.from[edges.count - 1] as number);
  return { rank: iterate(p, out, { from, to, share, count: k }), out };
}

/** Power iteration of PageRank over merged edges, until stable or {@link ITERATIONS}. */
function iterate(
  p: Float64Array,
  out: Float64Array,
  merged: { from: Int32Array; to: Int32Array; share: Float64Array; count: number },
): Float64Array {
  const n = p.length;
  const { from, to, share, count } = merged;
  let rank = Float64Array.from(p);
  let next = new Float64Array(n);
  for (let iter = 0; iter < ITERATIONS; iter++) {
    let dangling = 0;
    for (let i = 0; i < n; i++) if (out[i] === 0) dangling += rank[i] as number;
    for (let i = 0; i < n; i++) next[i] = (1 - DAMPING + DAMPING * dangling) * (p[i] as number);
    for (let e = 0; e < count; e++) {
      const t = to[e] as number;
      next[t] =
        (next[t] as number) + DAMPING * (rank[from[e] as number] as number) * (share[e] as number);
    }
    let moved = 0;
    for (let i = 0; i < n; i++)
      moved = Math.max(moved, Math.abs((next[i] as number) - (rank[i] as number)));
    [rank, next] = [next, rank];
    if (moved < TOLERANCE) break;
  }
  return rank;
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
  // What each definition receives: its referencing files' rank, split by edge weight
  // (keyed by file and name index).
  const names = edges.ids.size;
  const incoming = new Map<number, number>();
  for (let e = 0; e < edges.count; e++) {
    const source = edges.from[e] as number;
    const share =
      ((rank[source] as number) * (edges.weight[e] as number)) / (out[source] as number);
    const key = (edges.to[e] as number) * names + (edges.name[e] as number);
    incoming.set(key, (incoming.get(key) ?? 0) + share);
  }
  // `file` is the index in the sorted paths, so ties break by path without comparing strings.
  const ranked: Array<RankedDefinition & { readonly file: number }> = [];
  paths.forEach((path, file) => {
    const fileRank = rank[file] as number;
    for (const def of files.get(path)?.defs ?? []) {
      const key = file * names + (edges.ids.get(def.name) as number);
      let score = (incoming.get(key) ?? 0) + fileRank * 1e-3;
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
