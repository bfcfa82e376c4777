import type { Key } from "ink";

/** What ink hands the input for the bracketed paste markers (ESC[200~ and ESC[201~, the ESC cut off). */
export const PASTE_START = "[200~";
export const PASTE_END = "[201~";

/** Turns on the terminal's bracketed paste mode (pastes arrive between the markers). */
export const BRACKETED_PASTE_ON = "\u001B[?2004h";
export const BRACKETED_PASTE_OFF = "\u001B[?2004l";

/** Collapsed pastes in the editor: placeholder -> the full text. */
export type Pastes = Readonly<Record<string, string>>;

/** A paste of more lines than this, or more characters, is shown collapsed in the editor. */
export const COLLAPSE_LINES = 5;
export const COLLAPSE_CHARS = 800;

/** The pasted text with line endings as the editor keeps them (`\r\n` and `\r` become `\n`). */
export function normalizePaste(text: string): string {
  return text.replace(/\r\n?/g, "\n");
}

/** Whether a paste is large enough to be shown as a placeholder. */
export function isLargePaste(text: string): boolean {
  return text.length > COLLAPSE_CHARS || text.split("\n").length > COLLAPSE_LINES;
}

/** The placeholder for a paste: `[pasted N lines]`, numbered when that one is already in use. */
export function placeholderFor(text: string, pastes: Pastes): string {
  const lines = text.split("\n").length;
  const base = `[pasted ${lines} line${lines === 1 ? "" : "s"}`;
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? `${base}]` : `${base} #${n}]`;
    if (!(candidate in pastes)) return candidate;
  }
}

/** The text to send: each placeholder still in it replaced by its paste (an edited one stays as typed). */
export function expandPastes(text: string, pastes: Pastes): string {
  let out = text;
  for (const [placeholder, full] of Object.entries(pastes)) out = out.split(placeholder).join(full);
  return out;
}

/** One input event inside a bracketed paste as text (keys that ink names carry no text of their own). */
export function pasteChunk(input: string, key: Key): string {
  if (key.tab) return "\t";
  if (key.return) return "\r";
  return input;
}
