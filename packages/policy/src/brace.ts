/**
 * Brace expansion as bash does it before tilde expansion: `{a,b}x` is `ax bx`, `{1..3}` is
 * `1 2 3`, `{a..e..2}` is `a c e`, nested braces too. Quotes are already gone from the words
 * the gate sees, so a quoted `'{a,b}'` cannot be told from an unquoted one: the word as written
 * is always returned as well, which over-approximates (safe for both deny and allow checks).
 */

/** Most words one word may expand to; more makes the word unknown. */
const MAX_WORDS = 256;

/**
 * Every word `word` may stand for after brace expansion (the word itself first), or undefined
 * when it would expand to more than {@link MAX_WORDS} words. Pure; never throws.
 */
export function expandBraces(word: string): string[] | undefined {
  if (!word.includes("{")) return [word];
  const out = new Set<string>([word]);
  const expanded = expand(word, 0);
  if (expanded === undefined) return undefined;
  for (const w of expanded) out.add(w);
  return [...out];
}

function expand(word: string, depth: number): string[] | undefined {
  if (depth > 8) return undefined;
  const brace = firstBrace(word);
  if (!brace) return [word];
  const { open, close, parts } = brace;
  const head = word.slice(0, open);
  const tail = word.slice(close + 1);
  const out: string[] = [];
  for (const part of parts) {
    const more = expand(head + part + tail, depth + 1);
    if (more === undefined) return undefined;
    out.push(...more);
    if (out.length > MAX_WORDS) return undefined;
  }
  return out;
}

interface Brace {
  readonly open: number;
  readonly close: number;
  readonly parts: readonly string[];
}

/** The first `{...}` that bash expands (a top-level comma, or a sequence), left to right. */
function firstBrace(word: string): Brace | undefined {
  for (let open = word.indexOf("{"); open >= 0; open = word.indexOf("{", open + 1)) {
    if (word[open - 1] === "$" || word[open - 1] === "\\") continue;
    const found = braceAt(word, open);
    if (found) return found;
  }
  return undefined;
}

function braceAt(word: string, open: number): Brace | undefined {
  let depth = 0;
  const commas: number[] = [];
  for (let i = open + 1; i < word.length; i++) {
    const c = word[i];
    if (c === "\\") i++;
    else if (c === "{") depth++;
    else if (c === "}" && depth > 0) depth--;
    else if (c === "}") {
      const inner = word.slice(open + 1, i);
      if (commas.length > 0) {
        const parts: string[] = [];
        let from = open + 1;
        for (const comma of commas) {
          parts.push(word.slice(from, comma));
          from = comma + 1;
        }
        parts.push(word.slice(from, i));
        return { open, close: i, parts };
      }
      const seq = sequence(inner);
      return seq ? { open, close: i, parts: seq } : undefined;
    } else if (c === "," && depth === 0) commas.push(i);
  }
  return undefined;
}

/**
 * `1..5`, `a..e`, `10..1..3`: the words of a sequence expression, or undefined when `inner` is
 * not one. A sequence longer than {@link MAX_WORDS} comes back as too many words, so that
 * `expand` gives up on the word.
 */
function sequence(inner: string): string[] | undefined {
  const m = /^(-?\d+|[A-Za-z])\.\.(-?\d+|[A-Za-z])(?:\.\.(-?\d+))?$/.exec(inner);
  if (!m) return undefined;
  const [, a = "", b = "", stepText] = m;
  const numeric = /\d/.test(a) && /\d/.test(b);
  if (!numeric && (/\d/.test(a) || /\d/.test(b))) return undefined;
  const from = numeric ? Number(a) : a.charCodeAt(0);
  const to = numeric ? Number(b) : b.charCodeAt(0);
  const step = Math.max(1, Math.abs(Number(stepText ?? 1)) || 1);
  if (Math.abs(to - from) / step >= MAX_WORDS) return new Array<string>(MAX_WORDS + 1).fill(a);
  const out: string[] = [];
  const dir = to >= from ? 1 : -1;
  const width = numeric && /^-?0\d/.test(a + b) ? Math.max(a.length, b.length) : 0;
  for (let v = from; dir > 0 ? v <= to : v >= to; v += dir * step) {
    out.push(numeric ? pad(v, width) : String.fromCharCode(v));
  }
  return out;
}

function pad(v: number, width: number): string {
  const s = String(Math.abs(v)).padStart(width - (v < 0 ? 1 : 0), "0");
  return v < 0 ? `-${s}` : s;
}
