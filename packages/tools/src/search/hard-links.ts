import { lstat } from "node:fs/promises";
import type { ToolCtx } from "../ctx.js";

/**
 * Leaves out regular files with more than one hard link that no rule lets be read under their
 * own name (`ctx.hardLinkReadAllowed`; without it, every such file): a hard link may be a file
 * the rules keep out, under a name nobody checked, and a search cannot stop to ask. Keeps
 * the order. Never rejects (a file that cannot be looked at is kept: the search read it as it
 * was).
 */
export async function withoutHardLinked<T>(
  items: readonly T[],
  pathOf: (item: T) => string,
  ctx: Pick<ToolCtx, "hardLinkReadAllowed">,
): Promise<{ readonly kept: readonly T[]; readonly left: number }> {
  const linked = await Promise.all(
    items.map(async (item) => {
      const info = await lstat(pathOf(item)).catch(() => null);
      return info?.isFile() === true && info.nlink > 1;
    }),
  );
  const allowed = ctx.hardLinkReadAllowed;
  const kept = items.filter((item, i) => !linked[i] || allowed?.(pathOf(item)) === true);
  return { kept, left: items.length - kept.length };
}

/** The note that tells the model hard-linked files were left out, or "". */
export function hardLinkNote(left: number): string {
  if (left === 0) return "";
  const files = left === 1 ? "1 file was" : `${left} files were`;
  return `\n(${files} left out: ${left === 1 ? "it has" : "they have"} other hard links, so ${left === 1 ? "it" : "each"} may be a file the permission rules keep out under another name. Read ${left === 1 ? "it" : "one"} to be asked, or allow its path with a Read rule.)`;
}
