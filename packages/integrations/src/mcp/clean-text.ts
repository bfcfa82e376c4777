/** The longest tool description a model is given (Claude Code cuts MCP descriptions at 2,048). */
export const MAX_DESCRIPTION_LENGTH = 2048;

/**
 * Control characters but tab and newline, bidirectional overrides and isolates, and
 * zero-width characters: text a server sends that reads differently to a person than to the
 * model (or hides from the person what the model reads).
 */
// biome-ignore lint/complexity/useRegexLiterals: as a literal, the control characters trip another lint.
const HIDDEN = new RegExp(
  "[\\u0000-\\u0008\\u000B-\\u001F\\u007F-\\u009F\\u061C\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2069\\uFEFF]",
  "g",
);

/**
 * Server-provided text (a tool's description, a server's instructions) made safe to show a
 * model and a person alike: hidden and control characters removed, `\r\n` made `\n`, and cut
 * to `max` characters with a note saying how much was left out. Pure.
 */
export function cleanServerText(text: string, max = MAX_DESCRIPTION_LENGTH): string {
  const clean = text.replace(/\r\n?/g, "\n").replace(HIDDEN, "");
  if (clean.length <= max) return clean;
  // The note is at most 40 characters long, so the whole stays within `max`.
  const kept = Math.max(0, max - 40);
  return `${clean.slice(0, kept)}… [${clean.length - kept} more characters cut]`;
}
