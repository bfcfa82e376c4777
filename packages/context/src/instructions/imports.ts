import { dirname, isAbsolute, join, resolve } from "node:path";
import { type InstructionFs, readInstruction } from "./fs.js";
import {
  createScopeChecker,
  type InstructionScope,
  refusedNote,
  type ScopeChecker,
} from "./scope.js";

/** Limits on `@path` imports inside instruction files. */
export interface ImportLimits {
  /** How deep imports may nest (default 5). */
  readonly maxDepth?: number;
  /** Most characters taken from one file (default 64 KiB); the rest is cut with a note. */
  readonly maxFileChars?: number;
  /** Most characters imported in total from one top-level file (default 256 KiB). */
  readonly maxTotalChars?: number;
}

/** Where imports are resolved and how far they may go. */
export interface ImportContext {
  readonly fs: InstructionFs;
  /** For `@~/...` imports; without it they are left as text. */
  readonly homeDir?: string;
  readonly limits?: ImportLimits;
  /** Where imports may come from; one outside it is refused with a note in the text. */
  readonly scope: InstructionScope;
}

/** An instruction file's text with its imports expanded, and what could not be imported. */
export interface ExpandedText {
  readonly text: string;
  /** Files imported (absolute paths), in order of first import. */
  readonly imported: string[];
  readonly problems: string[];
}

// `@path` at the start of a line or after whitespace; paths look like ./a, ../a, ~/a, /a or a/b.md.
const IMPORT = /(^|\s)@((?:~\/|\.{1,2}\/|\/)?[\w.\-/]*[\w\-/][\w.\-/]*)/g;
const FENCE = /^\s*(`{3,}|~{3,})/;

interface State {
  readonly ctx: ImportContext;
  readonly checker: ScopeChecker;
  readonly stack: string[];
  readonly imported: string[];
  readonly problems: string[];
  total: number;
}

function resolveImport(
  raw: string,
  fromDir: string,
  homeDir: string | undefined,
): string | undefined {
  if (raw.startsWith("~/")) return homeDir === undefined ? undefined : join(homeDir, raw.slice(2));
  return isAbsolute(raw) ? raw : resolve(fromDir, raw);
}

async function expandLine(line: string, fromDir: string, state: State): Promise<string> {
  let out = "";
  let last = 0;
  for (const match of line.matchAll(IMPORT)) {
    const raw = (match[2] ?? "").replace(/[.,;:]+$/, "");
    const start = (match.index ?? 0) + (match[1] ?? "").length;
    const path = resolveImport(raw, fromDir, state.ctx.homeDir);
    if (path === undefined) continue;
    const inserted = await importFile(path, raw, state);
    if (inserted === undefined) continue;
    out += `${line.slice(last, start)}${inserted}`;
    last = start + 1 + raw.length;
  }
  return out + line.slice(last);
}

async function importFile(written: string, raw: string, state: State): Promise<string | undefined> {
  const limits = state.ctx.limits ?? {};
  let path: string;
  try {
    const admission = await state.checker.admit(written);
    if (admission.kind === "missing") return undefined;
    if (admission.kind === "refused") {
      state.problems.push(`import @${raw} refused: ${admission.real} is outside the project`);
      return refusedNote(raw);
    }
    path = admission.real;
  } catch (error) {
    state.problems.push(`could not read ${written}: ${String(error)}`);
    return undefined;
  }
  if (state.stack.includes(path)) {
    state.problems.push(`import cycle: ${[...state.stack, path].join(" -> ")}`);
    return `[import cycle: ${path}]`;
  }
  if (state.stack.length > (limits.maxDepth ?? 5)) {
    state.problems.push(`imports nested too deep at ${path}`);
    return `[not imported, nested too deep: ${path}]`;
  }
  const room = (limits.maxTotalChars ?? 256 * 1024) - state.total;
  const max = Math.min(limits.maxFileChars ?? 64 * 1024, Math.max(0, room));
  // A character is at most four bytes: this reads enough for `max` characters and no more.
  const read = await readInstruction(state.ctx.fs, path, max * 4 + 4);
  if (read.kind === "missing") return undefined;
  if (read.kind === "refused") {
    state.problems.push(`import @${raw} refused: ${read.problem}`);
    return refusedNote(raw, read.why);
  }
  let text = read.text;
  if (text.length > max || read.cut) {
    state.problems.push(`${path} cut to ${max} characters`);
    text = `${text.slice(0, max)}\n[… ${path} cut: import size limit]`;
  }
  state.total += text.length;
  if (!state.imported.includes(path)) state.imported.push(path);
  return expandText(text, path, state);
}

/** The line split at its code spans (CommonMark: a run of N backticks closed by a run of N). */
function splitCodeSpans(line: string): Array<{ code: boolean; text: string }> {
  const parts: Array<{ code: boolean; text: string }> = [];
  let last = 0;
  for (const m of line.matchAll(/(?<!`)(`+)(?!`)[\s\S]*?(?<!`)\1(?!`)/g)) {
    parts.push({ code: false, text: line.slice(last, m.index) });
    parts.push({ code: true, text: m[0] });
    last = m.index + m[0].length;
  }
  parts.push({ code: false, text: line.slice(last) });
  return parts;
}

async function expandText(text: string, path: string, state: State): Promise<string> {
  state.stack.push(path);
  const lines = text.split("\n");
  // The open fence's marker (``` or ~~~, and its length): only the same marker closes it.
  let fence: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    const mark = FENCE.exec(line)?.[0].trim();
    if (fence !== null) {
      if (mark !== undefined && mark[0] === fence[0] && mark.length >= fence.length) fence = null;
      continue;
    }
    if (mark !== undefined) {
      fence = mark;
      continue;
    }
    if (!line.includes("@")) continue;
    // Inline code spans are left alone: only the parts outside them are expanded.
    const parts = splitCodeSpans(line);
    for (const part of parts)
      if (!part.code) part.text = await expandLine(part.text, dirname(path), state);
    lines[i] = parts.map((p) => p.text).join("");
  }
  state.stack.pop();
  return lines.join("\n");
}

/**
 * Expands `@path` imports in an instruction file's `text` (read from `path`): relative to
 * the file's folder, `~/` from `homeDir`, or absolute. An import whose file does not exist
 * stays as written (it may be a mention such as `@someone`). An import is resolved to its
 * real path (symlinks followed); one outside `ctx.scope` is refused and leaves the note
 * `[import @path refused: outside the project]` in place of its text. Code blocks and inline code
 * are not expanded. Cycles, nesting beyond `maxDepth` and size limits leave a note in the
 * text and a line in `problems`. Never rejects: unreadable files are problems.
 */
export async function expandImports(
  text: string,
  path: string,
  ctx: ImportContext,
): Promise<ExpandedText> {
  const checker = createScopeChecker(ctx.scope, ctx.fs);
  const state: State = { ctx, checker, stack: [], imported: [], problems: [], total: 0 };
  const expanded = await expandText(text, path, state);
  return { text: expanded, imported: state.imported, problems: state.problems };
}
