/**
 * Characters that bash and tree-sitter-bash may read differently, or that a person cannot see
 * on an approval card. The parser treats `\r`, `\v` and `\f` as blanks (so `npm test\r#; x`
 * is `npm test` plus a comment to it, while bash runs `x`); bash treats every one of these as
 * an ordinary word character, and bidi controls or zero-width spaces reorder or hide text.
 *
 * The set: C0 controls but tab and newline, DEL and C1 controls, Unicode spaces and line or
 * paragraph separators, zero-width and bidi formatting characters, the byte-order mark, and
 * unpaired UTF-16 surrogates. NUL is handled by the caller (bash drops it from its input).
 */
const SUSPECT_SOURCE =
  "[\\x01-\\x08\\x0b-\\x1f\\x7f-\\x9f\\u00a0\\u00ad\\u061c\\u1680\\u180e\\u2000-\\u200f\\u2028-\\u202f\\u205f-\\u206f\\u3000\\ufeff\\ufff9-\\ufffb]" +
  "|[\\ud800-\\udbff](?![\\udc00-\\udfff])|(?<![\\ud800-\\udbff])[\\udc00-\\udfff]";
const SUSPECT = new RegExp(SUSPECT_SOURCE);
const SUSPECT_ALL = new RegExp(SUSPECT_SOURCE, "g");

/** The placeholder a suspect character becomes for parsing: a word character to both readers. */
const PLACEHOLDER = "_";

/** True when `text` holds a character of the set above (or NUL). Fast for plain commands. */
export function hasSuspectChars(text: string): boolean {
  return SUSPECT.test(text) || text.includes("\0");
}

/** The offsets (UTF-16 code units) of every suspect character in `text`. */
export function suspectOffsets(text: string): number[] {
  const out: number[] = [];
  for (const m of text.matchAll(SUSPECT_ALL)) out.push(m.index);
  return out;
}

/**
 * `text` as both bash and the parser read it alike: NUL bytes dropped (bash drops them from
 * a script it reads), every other suspect character replaced by `_` (bash reads them as word
 * characters, as it reads `_`). The result keeps offsets when `text` holds no NUL.
 */
export function normaliseSuspects(text: string): string {
  return text.replaceAll("\0", "").replace(SUSPECT_ALL, PLACEHOLDER);
}

/** `U+000D` for a character. */
export function codePointName(ch: string): string {
  return `U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`;
}

/**
 * A command (or any text) for display: every character the shell and its parser may read
 * differently, or that cannot be seen, is shown as `<U+XXXX>` (`npm test\r#; x` becomes
 * `npm test<U+000D>#; x`); NUL too. Newlines, tabs and all other text are kept. Pure.
 */
export function displayCommand(text: string): string {
  if (!hasSuspectChars(text)) return text;
  return text.replace(SUSPECT_ALL, (ch) => `<${codePointName(ch)}>`).replaceAll("\0", "<U+0000>");
}
