import { changedText, type TextChange, wholeChange } from "../text-change.js";

/** One replacement, with Claude Code's field names. */
export interface EditSpec {
  readonly old_string: string;
  readonly new_string: string;
  readonly replace_all?: boolean | undefined;
}

/** The change an edit makes to the text, or why it cannot apply (written for the model). */
export type EditResult =
  | { readonly ok: true; readonly change: TextChange }
  | { readonly ok: false; readonly error: string };

/**
 * Applies one exact-match replacement; the change covers the match only (with replace_all,
 * the whole text). `old_string` must occur exactly once unless `replace_all`; an empty
 * `old_string` only fills an empty file. Line breaks in the strings are matched as LF when
 * the file is CRLF (`crlf`), since the text is held with LF. Never throws.
 */
export function applyEdit(text: string, spec: EditSpec, crlf: boolean): EditResult {
  const oldString = crlf ? spec.old_string.replaceAll("\r\n", "\n") : spec.old_string;
  const newString = crlf ? spec.new_string.replaceAll("\r\n", "\n") : spec.new_string;
  if (oldString === newString) {
    return {
      ok: false,
      error: "No changes to make: old_string and new_string are exactly the same.",
    };
  }
  if (oldString === "") {
    if (text !== "")
      return {
        ok: false,
        error: "old_string is empty, but the file is not: name the exact text to replace.",
      };
    return { ok: true, change: { start: 0, end: 0, insert: newString } };
  }
  const first = text.indexOf(oldString);
  if (first < 0) {
    return {
      ok: false,
      error:
        "String to replace not found in file. old_string must match the file exactly, including whitespace and indentation.",
    };
  }
  if (spec.replace_all) {
    const replaced = text.replaceAll(oldString, () => newString);
    return { ok: true, change: wholeChange(text, replaced) };
  }
  if (text.indexOf(oldString, first + oldString.length) >= 0) {
    return {
      ok: false,
      error:
        "old_string occurs more than once in the file. Add surrounding context to make it unique, or set replace_all to replace every occurrence.",
    };
  }
  return { ok: true, change: { start: first, end: first + oldString.length, insert: newString } };
}

/** Applies edits in order, all or nothing; the error names the failing edit (1-based). Never throws. */
export function applyEdits(text: string, specs: readonly EditSpec[], crlf: boolean): EditResult {
  let current = text;
  for (const [index, spec] of specs.entries()) {
    const result = applyEdit(current, spec, crlf);
    if (!result.ok)
      return specs.length === 1
        ? result
        : {
            ok: false,
            error: `Edit ${index + 1} of ${specs.length}: ${result.error} No edit was applied.`,
          };
    current = changedText(current, result.change);
  }
  return { ok: true, change: wholeChange(text, current) };
}
