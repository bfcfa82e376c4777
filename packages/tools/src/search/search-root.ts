import { lstat } from "node:fs/promises";
import type { ToolCtx } from "../ctx.js";
import { callTarget } from "../planned-target.js";
import { notRegularMessage } from "../regular-file.js";

/** Where a Grep or Glob call searches: a folder or a regular file. */
export interface SearchRoot {
  readonly path: string;
  readonly isFolder: boolean;
}

/**
 * Resolves a search's `path` (default the shell's folder) for the call: an error for the model
 * when it leads elsewhere than the gate saw, is missing, is neither a folder nor a regular
 * file (a FIFO or a device would never end), or is covered by a Read deny rule. Never rejects.
 */
export async function searchRoot(
  input: string | undefined,
  ctx: ToolCtx,
): Promise<SearchRoot | { readonly error: string }> {
  const target = await callTarget(input ?? ".", ctx, "read");
  if (!target.ok) return { error: target.error };
  const path = target.target.path;
  const info = await lstat(path).catch(() => null);
  if (!info) return { error: `Path does not exist: ${path}` };
  if (!info.isDirectory() && !info.isFile()) return { error: notRegularMessage(path, info) };
  if (ctx.readDenied?.(path))
    return { error: `Permission denied: reading ${path} is denied by a Read rule.` };
  return { path, isFolder: info.isDirectory() };
}

/**
 * Leaves out what a Read deny rule covers (`pathOf` gives each item's real absolute path),
 * keeping the order. Without `ctx.readDenied` the items come back as they are.
 */
export function withoutDenied<T>(
  items: readonly T[],
  pathOf: (item: T) => string,
  ctx: ToolCtx,
): { readonly kept: readonly T[]; readonly left: number } {
  const denied = ctx.readDenied;
  if (!denied) return { kept: items, left: 0 };
  const kept = items.filter((item) => !denied(pathOf(item)));
  return { kept, left: items.length - kept.length };
}

/**
 * The first `count` paths, in order, that no Read deny rule covers: `left` is how many denied
 * ones were passed over, `checked` how many paths were looked at (all of them without
 * `ctx.readDenied`, so the caller knows whether `kept` holds every allowed path).
 */
export function firstAllowed(
  paths: readonly string[],
  count: number,
  ctx: ToolCtx,
): { readonly kept: readonly string[]; readonly left: number; readonly checked: number } {
  const denied = ctx.readDenied;
  if (!denied) return { kept: paths, left: 0, checked: paths.length };
  const kept: string[] = [];
  let checked = 0;
  while (checked < paths.length && kept.length < count) {
    const path = paths[checked++] as string;
    if (!denied(path)) kept.push(path);
  }
  return { kept, left: checked - kept.length, checked };
}

/** The note that tells the model some files were left out, or "". */
export function leftOutNote(left: number): string {
  if (left === 0) return "";
  return `\n(${left} ${left === 1 ? "file was" : "files were"} left out: Read deny rules cover ${left === 1 ? "it" : "them"}.)`;
}
