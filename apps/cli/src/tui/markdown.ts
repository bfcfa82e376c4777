/** A run of text with one style. */
export interface Span {
  readonly text: string;
  readonly bold?: boolean;
  readonly italic?: boolean;
  readonly code?: boolean;
}

/** One rendered line of markdown. */
export interface MdLine {
  readonly kind: "text" | "heading" | "code" | "quote" | "rule";
  readonly spans: readonly Span[];
}

const INLINE = /(`[^`]+`|\*\*[^*]+\*\*|__[^_]+__|\*[^*\s][^*]*\*|_[^_\s][^_]*_)/g;

/** Inline styles: `code`, **bold**, *italic*. Unclosed markers stay as typed. */
export function inline(text: string): Span[] {
  const spans: Span[] = [];
  let last = 0;
  for (const m of text.matchAll(INLINE)) {
    const at = m.index ?? 0;
    if (at > last) spans.push({ text: text.slice(last, at) });
    const token = m[0];
    if (token.startsWith("`")) spans.push({ text: token.slice(1, -1), code: true });
    else if (token.startsWith("**") || token.startsWith("__"))
      spans.push({ text: token.slice(2, -2), bold: true });
    else spans.push({ text: token.slice(1, -1), italic: true });
    last = at + token.length;
  }
  if (last < text.length) spans.push({ text: text.slice(last) });
  return spans;
}

/**
 * Markdown as terminal lines: headings, fenced code (kept verbatim), quotes, rules, lists
 * (bullets become `•`) and inline styles. Text that is not markdown comes out as it is.
 */
export function markdownLines(source: string): MdLine[] {
  const lines: MdLine[] = [];
  let fenced = false;
  for (const raw of source.split("\n")) {
    if (/^\s*(```|~~~)/.test(raw)) {
      fenced = !fenced;
      continue;
    }
    if (fenced) {
      lines.push({ kind: "code", spans: [{ text: raw, code: true }] });
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(raw);
    if (heading) {
      lines.push({ kind: "heading", spans: [{ text: heading[2] ?? "", bold: true }] });
      continue;
    }
    if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(raw)) {
      lines.push({ kind: "rule", spans: [{ text: "─".repeat(20) }] });
      continue;
    }
    const quote = /^>\s?(.*)$/.exec(raw);
    if (quote) {
      lines.push({ kind: "quote", spans: inline(quote[1] ?? "") });
      continue;
    }
    const bullet = /^(\s*)[-*+]\s+(.*)$/.exec(raw);
    if (bullet) {
      lines.push({ kind: "text", spans: [{ text: `${bullet[1]}• ` }, ...inline(bullet[2] ?? "")] });
      continue;
    }
    lines.push({ kind: "text", spans: inline(raw) });
  }
  return lines;
}
