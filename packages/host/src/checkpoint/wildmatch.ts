/**
 * Git's `wildmatch` (shell-style matching of `*`, `?`, `[...]`, `\` and `**`), re-expressed
 * over bytes so that it agrees with git 2.39 case by case, quirks included: `?` and `[...]`
 * match one byte (not one character), a `[` with no closing `]` matches nothing, `]` right
 * after `[` or `[!` is a member, `[^...]` equals `[!...]`, and `**` only spans folders when it
 * stands alone between slashes (or at the start or end of the text given to it). No case
 * folding (`core.ignoreCase` false) and no POSIX classes: the parser rejects `[:` before a
 * pattern gets here.
 */

const MATCH = 0;
const NO_MATCH = 1;
const ABORT_ALL = -1;
const ABORT_TO_STARSTAR = -2;

const SLASH = 0x2f;
const STAR = 0x2a;
const QUESTION = 0x3f;
const OPEN = 0x5b;
const CLOSE = 0x5d;
const BACKSLASH = 0x5c;
const BANG = 0x21;
const CARET = 0x5e;
const DASH = 0x2d;

/** `*`, `?`, `[` and `\`: the bytes git calls glob-special. */
export function isGlobSpecial(byte: number): boolean {
  return byte === STAR || byte === QUESTION || byte === OPEN || byte === BACKSLASH;
}

/** A byte string read as C reads a NUL-terminated one: 0 past the end. */
class Bytes {
  constructor(
    readonly data: Uint8Array,
    readonly start: number,
    readonly end: number,
  ) {}
  at(i: number): number {
    return i < this.end ? (this.data[i] ?? 0) : 0;
  }
  hasSlashFrom(i: number): boolean {
    for (let k = i; k < this.end; k++) if (this.data[k] === SLASH) return true;
    return false;
  }
  slashFrom(i: number): number {
    for (let k = i; k < this.end; k++) if (this.data[k] === SLASH) return k;
    return -1;
  }
}

/** Matches a bracket expression at `p` (on `[`) against byte `t`; returns [result, p on `]`]. */
function matchBracket(pat: Bytes, start: number, t: number, pathname: boolean): [number, number] {
  let p = start + 1;
  let pc = pat.at(p);
  if (pc === CARET) pc = BANG;
  const negated = pc === BANG;
  if (negated) pc = pat.at(++p);
  let prev = 0;
  let matched = false;
  do {
    if (pc === 0) return [ABORT_ALL, p];
    if (pc === BACKSLASH) {
      pc = pat.at(++p);
      if (pc === 0) return [ABORT_ALL, p];
      if (t === pc) matched = true;
    } else if (pc === DASH && prev !== 0 && pat.at(p + 1) !== 0 && pat.at(p + 1) !== CLOSE) {
      pc = pat.at(++p);
      if (pc === BACKSLASH) {
        pc = pat.at(++p);
        if (pc === 0) return [ABORT_ALL, p];
      }
      if (t <= pc && t >= prev) matched = true;
      pc = 0; // the next member cannot start a range from here
    } else if (t === pc) {
      matched = true;
    }
    prev = pc;
    pc = pat.at(++p);
  } while (pc !== CLOSE);
  if (matched === negated || (pathname && t === SLASH)) return [NO_MATCH, p];
  return [MATCH, p];
}

/** The `*` / `**` step: `p` is just past the first `*`. */
function matchStar(pat: Bytes, p: number, text: Bytes, t: number, pathname: boolean): number {
  let matchSlash: boolean;
  if (pat.at(p) === STAR) {
    const before = p - 2;
    while (pat.at(++p) === STAR) {}
    if (!pathname) matchSlash = true;
    else if (
      (before < pat.start || pat.at(before) === SLASH) &&
      (pat.at(p) === 0 ||
        pat.at(p) === SLASH ||
        (pat.at(p) === BACKSLASH && pat.at(p + 1) === SLASH))
    ) {
      if (pat.at(p) === SLASH && dowild(pat, p + 1, text, t, pathname) === MATCH) return MATCH;
      matchSlash = true;
    } else matchSlash = false;
  } else matchSlash = !pathname;
  if (pat.at(p) === 0) {
    if (!matchSlash && text.hasSlashFrom(t)) return NO_MATCH;
    return MATCH;
  }
  if (!matchSlash && pat.at(p) === SLASH) {
    const slash = text.slashFrom(t);
    if (slash < 0) return NO_MATCH;
    return dowild(pat, p + 1, text, slash + 1, pathname);
  }
  let tc = text.at(t);
  while (tc !== 0) {
    const literal = pat.at(p);
    if (!isGlobSpecial(literal)) {
      // Skip ahead to the literal that must follow (never past a slash for a lone `*`).
      tc = text.at(t);
      while (tc !== 0 && (matchSlash || tc !== SLASH) && tc !== literal) tc = text.at(++t);
      if (tc !== literal) return NO_MATCH;
    }
    const matched = dowild(pat, p, text, t, pathname);
    if (matched !== NO_MATCH) {
      if (!matchSlash || matched !== ABORT_TO_STARSTAR) return matched;
    } else if (!matchSlash && tc === SLASH) return ABORT_TO_STARSTAR;
    tc = text.at(++t);
  }
  return ABORT_ALL;
}

function dowild(pat: Bytes, p: number, text: Bytes, t: number, pathname: boolean): number {
  for (; pat.at(p) !== 0; p++, t++) {
    let pc = pat.at(p);
    const tc = text.at(t);
    if (tc === 0 && pc !== STAR) return ABORT_ALL;
    switch (pc) {
      case QUESTION:
        if (pathname && tc === SLASH) return NO_MATCH;
        continue;
      case STAR:
        return matchStar(pat, p + 1, text, t, pathname);
      case OPEN: {
        const [result, close] = matchBracket(pat, p, tc, pathname);
        if (result !== MATCH) return result;
        p = close;
        continue;
      }
      case BACKSLASH:
        pc = pat.at(++p);
        if (tc !== pc) return NO_MATCH;
        continue;
      default:
        if (tc !== pc) return NO_MATCH;
    }
  }
  return text.at(t) !== 0 ? NO_MATCH : MATCH;
}

/**
 * Whether `pattern[pStart..pEnd)` matches `text[tStart..tEnd)` as git's `wildmatch` does,
 * with `WM_PATHNAME` when `pathname` is true (`*`, `?` and `[...]` then never match `/`).
 * The pattern's start is where git's own call starts (it matters for `**`).
 */
export function wildmatch(
  pattern: Uint8Array,
  pStart: number,
  pEnd: number,
  text: Uint8Array,
  tStart: number,
  tEnd: number,
  pathname: boolean,
): boolean {
  const pat = new Bytes(pattern, pStart, pEnd);
  return dowild(pat, pStart, new Bytes(text, tStart, tEnd), tStart, pathname) === MATCH;
}
