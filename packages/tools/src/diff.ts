import { commonPrefix, commonSuffix } from "./common-ends.js";
import type { TextChange } from "./text-change.js";

/** A unified diff of one file, with its added and removed line counts. */
export interface FileDiff {
  readonly diff: string;
  readonly added: number;
  readonly removed: number;
}

const CONTEXT = 3;
const MAX_LCS_CELLS = 4_000_000;

function countLines(text: string, end: number): number {
  let count = 0;
  for (let i = text.indexOf("\n"); i >= 0 && i < end; i = text.indexOf("\n", i + 1)) count++;
  return count;
}

type Op = { readonly kind: " " | "-" | "+"; readonly line: string };

/** Line operations turning a into b: LCS when small enough, else remove all then add all. */
function lineOps(a: string[], b: string[]): Op[] {
  if (a.length * b.length > MAX_LCS_CELLS) {
    return [
      ...a.map((line) => ({ kind: "-" as const, line })),
      ...b.map((line) => ({ kind: "+" as const, line })),
    ];
  }
  const width = b.length + 1;
  const table = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      table[i * width + j] =
        a[i] === b[j]
          ? (table[(i + 1) * width + j + 1] ?? 0) + 1
          : Math.max(table[(i + 1) * width + j] ?? 0, table[i * width + j + 1] ?? 0);
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      ops.push({ kind: " ", line: a[i++] ?? "" });
      j++;
    } else if (
      i < a.length &&
      (j >= b.length || (table[(i + 1) * width + j] ?? 0) >= (table[i * width + j + 1] ?? 0))
    ) {
      ops.push({ kind: "-", line: a[i++] ?? "" });
    } else {
      ops.push({ kind: "+", line: b[j++] ?? "" });
    }
  }
  return ops;
}

function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** Groups operations into hunks with CONTEXT lines around each change. */
function renderHunks(ops: Op[], firstLine: number): string {
  const out: string[] = [];
  let index = 0;
  while (index < ops.length) {
    while (index < ops.length && ops[index]?.kind === " ") index++;
    if (index >= ops.length) break;
    let start = Math.max(0, index - CONTEXT);
    while (start > 0 && ops[start - 1]?.kind !== " ") start--;
    let end = index;
    let quiet = 0;
    while (end < ops.length && quiet <= 2 * CONTEXT) {
      quiet = ops[end]?.kind === " " ? quiet + 1 : 0;
      end++;
    }
    end = Math.min(ops.length, end - Math.max(0, quiet - CONTEXT));
    out.push(hunk(ops, start, end, firstLine));
    index = end;
  }
  return out.join("");
}

function hunk(ops: Op[], start: number, end: number, firstLine: number): string {
  let oldLine = firstLine;
  let newLine = firstLine;
  for (let k = 0; k < start; k++) {
    if (ops[k]?.kind !== "+") oldLine++;
    if (ops[k]?.kind !== "-") newLine++;
  }
  const slice = ops.slice(start, end);
  const oldCount = slice.filter((op) => op.kind !== "+").length;
  const newCount = slice.filter((op) => op.kind !== "-").length;
  const header = `@@ -${oldCount === 0 ? oldLine - 1 : oldLine},${oldCount} +${newCount === 0 ? newLine - 1 : newLine},${newCount} @@\n`;
  return header + slice.map((op) => `${op.kind}${op.line}\n`).join("");
}

/**
 * A unified diff (`--- a/path`, `+++ b/path`, hunks with 3 lines of context) of two texts.
 * Only the changed region and its context are split into lines, so a one-line change in a
 * large file stays cheap. Never throws.
 */
export function unifiedDiff(path: string, before: string, after: string): FileDiff {
  return diffFrom(path, before, after, 0);
}

function lineStartOf(text: string, at: number): number {
  return at === 0 ? 0 : text.lastIndexOf("\n", at - 1) + 1;
}

/**
 * The unified diff of a change to `before`, as {@link unifiedDiff} of the texts before and
 * after it, but built from the change's lines and their context only: nothing copies the
 * whole new text. (Where an insertion or deletion in repeated lines could sit in several
 * places, the hunk shows it where the change put it.) Never throws.
 */
export function changeDiff(path: string, before: string, change: TextChange): FileDiff {
  const from = lineStartBack(before, lineStartOf(before, change.start), CONTEXT);
  const endOfLine = before.indexOf("\n", change.end);
  const to = lineEndForward(before, endOfLine < 0 ? before.length : endOfLine + 1, CONTEXT);
  const after = before.slice(from, change.start) + change.insert + before.slice(change.end, to);
  return diffFrom(path, before.slice(from, to), after, countLines(before, from));
}

/** The diff of two texts whose first line is line `lineOffset + 1` of the file. */
function diffFrom(path: string, before: string, after: string, lineOffset: number): FileDiff {
  if (before === after) return { diff: "", added: 0, removed: 0 };
  const prefix = before.slice(0, commonPrefix(before, after)).lastIndexOf("\n") + 1;
  const suffixLen = commonSuffix(before, after, prefix);
  const shift = alignSuffix(before, after, suffixLen);
  const beforeEnd = before.length - suffixLen + shift;
  const afterEnd = after.length - suffixLen + shift;
  const contextStart = lineStartBack(before, prefix, CONTEXT);
  const firstLine = lineOffset + countLines(before, contextStart) + 1;
  const ops: Op[] = [
    ...splitLines(before.slice(contextStart, prefix)).map((line) => ({ kind: " " as const, line })),
    ...lineOps(
      splitLines(before.slice(prefix, beforeEnd)),
      splitLines(after.slice(prefix, afterEnd)),
    ),
    ...splitLines(before.slice(beforeEnd, lineEndForward(before, beforeEnd, CONTEXT))).map(
      (line) => ({
        kind: " " as const,
        line,
      }),
    ),
  ];
  const added = ops.filter((op) => op.kind === "+").length;
  const removed = ops.filter((op) => op.kind === "-").length;
  return { diff: `--- a/${path}\n+++ b/${path}\n${renderHunks(ops, firstLine)}`, added, removed };
}

/** How far to move the common suffix's start so that it begins a line in both texts. */
function alignSuffix(before: string, after: string, suffixLen: number): number {
  const b = before.length - suffixLen;
  const a = after.length - suffixLen;
  if ((b === 0 || before[b - 1] === "\n") && (a === 0 || after[a - 1] === "\n")) return 0;
  const next = before.indexOf("\n", b);
  return next < 0 ? suffixLen : next - b + 1;
}

function lineStartBack(text: string, at: number, lines: number): number {
  let pos = at;
  for (let k = 0; k < lines && pos > 0; k++) pos = text.lastIndexOf("\n", pos - 2) + 1;
  return pos;
}

function lineEndForward(text: string, at: number, lines: number): number {
  let pos = at;
  for (let k = 0; k < lines && pos < text.length; k++) {
    const next = text.indexOf("\n", pos);
    pos = next < 0 ? text.length : next + 1;
  }
  return pos;
}
