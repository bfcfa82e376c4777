import { commonPrefix, commonSuffix } from "./common-ends.js";

/**
 * A change of a text: `insert` replaces its characters from `start` to `end`. An edit of one
 * line of a large file stays small, so nothing needs to build (or copy) the whole new text.
 */
export interface TextChange {
  readonly start: number;
  readonly end: number;
  readonly insert: string;
}

/** The change that replaces all of `before` with `after` (narrow it with {@link narrowChange}). */
export function wholeChange(before: string, after: string): TextChange {
  return { start: 0, end: before.length, insert: after };
}

/** The text after the change. */
export function changedText(before: string, change: TextChange): string {
  return before.slice(0, change.start) + change.insert + before.slice(change.end);
}

/** True when the change leaves the text as it was. */
export function isEmptyChange(change: TextChange): boolean {
  return change.start === change.end && change.insert === "";
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/**
 * The change widened so that neither end falls inside a surrogate pair of `before` (a
 * lone-surrogate `old_string` can match half of one), so each side can be encoded on its own.
 */
export function wholePairs(before: string, change: TextChange): TextChange {
  let { start, end, insert } = change;
  if (start > 0 && isHighSurrogate(before.charCodeAt(start - 1))) {
    start--;
    insert = before.charAt(start) + insert;
  }
  if (end > 0 && end < before.length && isHighSurrogate(before.charCodeAt(end - 1))) {
    insert += before.charAt(end);
    end++;
  }
  return { start, end, insert };
}

/**
 * The change trimmed to the characters that really differ (what it keeps at either end is
 * dropped), then widened to whole surrogate pairs. Never throws.
 */
export function narrowChange(before: string, change: TextChange): TextChange {
  const old = before.slice(change.start, change.end);
  const prefix = commonPrefix(old, change.insert);
  const suffix = commonSuffix(old, change.insert, prefix);
  return wholePairs(before, {
    start: change.start + prefix,
    end: change.end - suffix,
    insert: change.insert.slice(prefix, change.insert.length - suffix),
  });
}
