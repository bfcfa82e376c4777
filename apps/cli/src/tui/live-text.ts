const FENCE = /^\s*(```|~~~)/;

/**
 * Splits streamed assistant text into what is finished and what is still coming: the part up
 * to the last blank line that lies outside a code fence is finished (whole paragraphs, lists,
 * closed code blocks), the rest stays live. A finished part is printed once into the
 * transcript, so the live area (redrawn on every frame) stays a paragraph tall however long
 * the answer grows. Pure.
 */
export function splitFinished(text: string): { readonly done: string; readonly rest: string } {
  let fenced = false;
  let cut = -1;
  let at = 0;
  const lines = text.split("\n");
  // The last line may still be growing: only lines followed by a newline are looked at.
  for (let i = 0; i < lines.length - 1; i++) {
    const line = lines[i] as string;
    if (FENCE.test(line)) fenced = !fenced;
    at += line.length + 1;
    if (!fenced && line.trim() === "" && i > 0) cut = at;
  }
  if (cut <= 0) return { done: "", rest: text };
  const done = text.slice(0, cut).trimEnd();
  return done === "" ? { done: "", rest: text.slice(cut) } : { done, rest: text.slice(cut) };
}

/** The last `rows` lines of a text, and how many lines came before them. */
export function tailLines(
  text: string,
  rows: number,
): { readonly text: string; readonly hidden: number } {
  const lines = text.split("\n");
  const keep = Math.max(1, rows);
  if (lines.length <= keep) return { text, hidden: 0 };
  return { text: lines.slice(-keep).join("\n"), hidden: lines.length - keep };
}
