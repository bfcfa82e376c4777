/** The prompt being typed: its text and the cursor (an index into the text). Immutable. */
export interface Editor {
  readonly text: string;
  readonly cursor: number;
}

export const EMPTY: Editor = { text: "", cursor: 0 };

/** An editor holding `text` with the cursor at its end. */
export function editorOf(text: string): Editor {
  return { text, cursor: text.length };
}

/** Inserts text at the cursor; pasted line endings (`\r\n`, `\r`) become `\n`. */
export function insert(e: Editor, raw: string): Editor {
  const text = raw.replace(/\r\n?/g, "\n");
  return {
    text: e.text.slice(0, e.cursor) + text + e.text.slice(e.cursor),
    cursor: e.cursor + text.length,
  };
}

export function backspace(e: Editor): Editor {
  if (e.cursor === 0) return e;
  return { text: e.text.slice(0, e.cursor - 1) + e.text.slice(e.cursor), cursor: e.cursor - 1 };
}

export function deleteForward(e: Editor): Editor {
  if (e.cursor >= e.text.length) return e;
  return { text: e.text.slice(0, e.cursor) + e.text.slice(e.cursor + 1), cursor: e.cursor };
}

export function left(e: Editor): Editor {
  return { ...e, cursor: Math.max(0, e.cursor - 1) };
}

export function right(e: Editor): Editor {
  return { ...e, cursor: Math.min(e.text.length, e.cursor + 1) };
}

function lineStart(text: string, at: number): number {
  return text.lastIndexOf("\n", at - 1) + 1;
}

function lineEnd(text: string, at: number): number {
  const end = text.indexOf("\n", at);
  return end < 0 ? text.length : end;
}

export function home(e: Editor): Editor {
  return { ...e, cursor: lineStart(e.text, e.cursor) };
}

export function end(e: Editor): Editor {
  return { ...e, cursor: lineEnd(e.text, e.cursor) };
}

/** Deletes from the start of the line to the cursor (Ctrl+U). */
export function killToStart(e: Editor): Editor {
  const start = lineStart(e.text, e.cursor);
  return { text: e.text.slice(0, start) + e.text.slice(e.cursor), cursor: start };
}

/** Deletes the word before the cursor (Ctrl+W). */
export function deleteWord(e: Editor): Editor {
  const before = e.text.slice(0, e.cursor).replace(/\S+\s*$|\s+$/, "");
  return { text: before + e.text.slice(e.cursor), cursor: before.length };
}

/**
 * Moves the cursor one line up (-1) or down (1), keeping its column where the line is long
 * enough. Undefined when there is no line there (the caller then walks the history).
 */
export function vertical(e: Editor, direction: -1 | 1): Editor | undefined {
  const start = lineStart(e.text, e.cursor);
  const column = e.cursor - start;
  if (direction < 0) {
    if (start === 0) return undefined;
    const prevStart = lineStart(e.text, start - 1);
    return { ...e, cursor: Math.min(prevStart + column, start - 1) };
  }
  const endAt = lineEnd(e.text, e.cursor);
  if (endAt >= e.text.length) return undefined;
  const nextStart = endAt + 1;
  return { ...e, cursor: Math.min(nextStart + column, lineEnd(e.text, nextStart)) };
}

/** The word being typed at the cursor, and where it starts (for `@` and `/` completion). */
export function wordAtCursor(e: Editor): { word: string; start: number } {
  const before = e.text.slice(0, e.cursor);
  const start = Math.max(before.lastIndexOf(" "), before.lastIndexOf("\n")) + 1;
  return { word: before.slice(start), start };
}

/** Replaces the word at the cursor with `replacement`. */
export function replaceWord(e: Editor, replacement: string): Editor {
  const { start } = wordAtCursor(e);
  const text = e.text.slice(0, start) + replacement + e.text.slice(e.cursor);
  return { text, cursor: start + replacement.length };
}
