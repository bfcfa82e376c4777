// A line diff (Myers' O(ND) algorithm after trimming the common prefix and suffix), its hunks
// with context, and the reverse of chosen hunks: what the Changes screen shows and what a
// per-hunk revert writes.

/** One line of a hunk: kept (" "), added ("+") or removed ("-"). */
export interface DiffLine {
  readonly kind: " " | "+" | "-";
  readonly text: string;
}

/** A run of changes with up to three lines of context around it. */
export interface DiffHunk {
  /** Position in the file's hunk list (what a per-hunk revert names). */
  readonly index: number;
  /** First line in the old and the new text, 1-based (0 for an empty side). */
  readonly oldStart: number;
  readonly oldLines: number;
  readonly newStart: number;
  readonly newLines: number;
  readonly lines: readonly DiffLine[];
}

/** A file's diff: its hunks and how many lines it adds and removes. */
export interface TextDiff {
  readonly hunks: readonly DiffHunk[];
  readonly added: number;
  readonly removed: number;
}

interface Op {
  readonly kind: " " | "+" | "-";
  readonly text: string;
}

/**
 * Myers' trace keeps one reach array per step: past this many cells (16 MB of them) the
 * middle is shown as one replacement instead.
 */
const MAX_TRACE_CELLS = 4_000_000;
const CONTEXT = 3;

/**
 * A text's lines as `split("\n")` gives them, so `join("\n")` is the text again: a final
 * newline leaves an empty last element, which is how a missing one shows as a change.
 */
function linesOf(text: string): string[] {
  return text.split("\n");
}

/** The middle's edit script by Myers' greedy algorithm, or null when it is too far apart. */
function myers(a: readonly string[], b: readonly string[]): Op[] | null {
  const n = a.length;
  const m = b.length;
  const offset = n + m + 1;
  const v = new Int32Array(2 * offset + 1);
  const trace: Int32Array[] = [];
  const maxSteps = Math.min(n + m, Math.floor(MAX_TRACE_CELLS / v.length));
  for (let d = 0; d <= maxSteps; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      const down = k === -d || (k !== d && (v[offset + k - 1] ?? 0) < (v[offset + k + 1] ?? 0));
      let x = down ? (v[offset + k + 1] ?? 0) : (v[offset + k - 1] ?? 0) + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return backtrack(a, b, trace, offset);
    }
  }
  return null;
}

/** Walks the trace back from the end: `trace[d]` is the furthest reach before step d. */
function backtrack(
  a: readonly string[],
  b: readonly string[],
  trace: readonly Int32Array[],
  offset: number,
): Op[] {
  const ops: Op[] = [];
  let x = a.length;
  let y = b.length;
  for (let d = trace.length - 1; d >= 0; d--) {
    const v = trace[d] as Int32Array;
    const k = x - y;
    const down = k === -d || (k !== d && (v[offset + k - 1] ?? 0) < (v[offset + k + 1] ?? 0));
    const prevK = down ? k + 1 : k - 1;
    const prevX = v[offset + prevK] ?? 0;
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      x--;
      y--;
      ops.push({ kind: " ", text: a[x] as string });
    }
    if (d === 0) break;
    if (x === prevX) ops.push({ kind: "+", text: b[prevY] as string });
    else ops.push({ kind: "-", text: a[prevX] as string });
    x = prevX;
    y = prevY;
  }
  return ops.reverse();
}

/** The whole edit script from `a` to `b`: kept, removed and added lines in order. */
function editScript(a: readonly string[], b: readonly string[]): Op[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  const middle = myers(midA, midB) ?? [
    ...midA.map((text): Op => ({ kind: "-", text })),
    ...midB.map((text): Op => ({ kind: "+", text })),
  ];
  return [
    ...a.slice(0, start).map((text): Op => ({ kind: " ", text })),
    ...middle,
    ...a.slice(endA).map((text): Op => ({ kind: " ", text })),
  ];
}

/** For each op, the hunk it belongs to (-1: outside every hunk), and the hunks' op ranges. */
function groupHunks(ops: readonly Op[]): { owner: Int32Array; ranges: Array<[number, number]> } {
  const owner = new Int32Array(ops.length).fill(-1);
  const ranges: Array<[number, number]> = [];
  let i = 0;
  while (i < ops.length) {
    if (ops[i]?.kind === " ") {
      i++;
      continue;
    }
    const from = Math.max(0, i - CONTEXT);
    let end = i;
    // Extend while the next change is within two contexts of the last one.
    for (let j = i; j < ops.length; j++) {
      if (ops[j]?.kind !== " ") end = j;
      else if (j - end > 2 * CONTEXT) break;
    }
    const to = Math.min(ops.length, end + CONTEXT + 1);
    const previous = ranges.at(-1);
    const start = previous && previous[1] > from ? previous[1] : from;
    ranges.push([start, to]);
    for (let j = start; j < to; j++) owner[j] = ranges.length - 1;
    i = to;
  }
  return { owner, ranges };
}

/** Diffs two texts line by line into hunks with three lines of context. Pure; never throws. */
export function diffTexts(oldText: string, newText: string): TextDiff {
  const all = editScript(linesOf(oldText), linesOf(newText));
  // The empty element a final newline on both sides leaves is not a line to show.
  const ops = all.at(-1)?.kind === " " && all.at(-1)?.text === "" ? all.slice(0, -1) : all;
  const { ranges } = groupHunks(ops);
  let added = 0;
  let removed = 0;
  for (const op of ops) {
    if (op.kind === "+") added++;
    else if (op.kind === "-") removed++;
  }
  const hunks: DiffHunk[] = [];
  let oldLine = 1;
  let newLine = 1;
  let at = 0;
  for (const [index, [from, to]] of ranges.entries()) {
    for (; at < from; at++) {
      const kind = ops[at]?.kind;
      if (kind !== "+") oldLine++;
      if (kind !== "-") newLine++;
    }
    const lines = ops.slice(from, to);
    const oldLines = lines.filter((l) => l.kind !== "+").length;
    const newLines = lines.filter((l) => l.kind !== "-").length;
    hunks.push({
      index,
      oldStart: oldLines === 0 ? oldLine - 1 : oldLine,
      oldLines,
      newStart: newLines === 0 ? newLine - 1 : newLine,
      newLines,
      lines,
    });
    for (; at < to; at++) {
      const kind = ops[at]?.kind;
      if (kind !== "+") oldLine++;
      if (kind !== "-") newLine++;
    }
  }
  return { hunks, added, removed };
}

/**
 * The new text with the chosen hunks (by index) taken back to the old text's lines; every
 * other change stays. Unknown indices are ignored. Pure; never throws.
 */
export function revertHunks(oldText: string, newText: string, indices: readonly number[]): string {
  const ops = editScript(linesOf(oldText), linesOf(newText));
  const { owner } = groupHunks(ops);
  const chosen = new Set(indices);
  const out: string[] = [];
  for (const [i, op] of ops.entries()) {
    const reverted = chosen.has(owner[i] ?? -1);
    if (op.kind === " " || (op.kind === "-" && reverted) || (op.kind === "+" && !reverted))
      out.push(op.text);
  }
  return out.join("\n");
}
