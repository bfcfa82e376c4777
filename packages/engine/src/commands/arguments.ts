/**
 * Argument substitution for command templates. The rule, matching Claude Code's where the
 * spec does not differ:
 *
 * - `$ARGUMENTS` is the whole argument text as typed; `$ARGUMENTS[N]` the N-th word (0-based).
 * - `$N` is a `$` and a whole number not followed by a letter, digit or `_` (Claude Code's
 *   `/\$(\d+)(?!\w)/`). Only `$1`..`$9` are placeholders here (1-based, as the spec says); a
 *   placeholder with no word at its place, `$0` and numbers above 9 stay as written. So
 *   `$45,234.67` and `$10` are never touched, and awk's `{sum+=$1}` stays intact unless a
 *   first word was given (substitution reaches inside code blocks, as in Claude Code).
 * - A backslash before a placeholder keeps it literal and is removed (`\$1` gives `$1`); a
 *   backslash before any other `$` (`\$HOME`) stays.
 * - Words split shell-style: whitespace separates, quotes group and are removed.
 * - Arguments given to a template without any placeholder are appended as
 *   `ARGUMENTS: <text>` (nothing the user typed is lost).
 */

/** Splits argument text into shell-style words: quotes group (and are removed), `\` escapes. */
export function shellWords(text: string): string[] {
  const words: string[] = [];
  let current = "";
  let started = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (quote) {
      if (ch === quote) quote = null;
      else if (ch === "\\" && quote === '"' && i + 1 < text.length) current += text[++i];
      else current += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      started = true;
    } else if (ch === "\\" && i + 1 < text.length) {
      current += text[++i];
      started = true;
    } else if (/\s/.test(ch)) {
      if (started) words.push(current);
      current = "";
      started = false;
    } else {
      current += ch;
      started = true;
    }
  }
  if (started) words.push(current);
  return words;
}

const PLACEHOLDER =
  /\\(\$(?:ARGUMENTS(?:\[\d+\])?|\d+(?!\w)))|\$ARGUMENTS\[(\d+)\]|\$ARGUMENTS|\$(\d+)(?!\w)/g;

/** Substitutes the arguments into a template (see the module comment for the exact rule). */
export function substituteArguments(template: string, args: string): string {
  const words = shellWords(args);
  let used = false;
  const text = template.replace(
    PLACEHOLDER,
    (
      match,
      escaped: string | undefined,
      index: string | undefined,
      position: string | undefined,
    ) => {
      if (escaped !== undefined) return escaped;
      if (index !== undefined) {
        used = true;
        return words[Number(index)] ?? "";
      }
      if (position === undefined) {
        used = true;
        return args;
      }
      const n = Number(position);
      if (n < 1 || n > 9 || words[n - 1] === undefined) return match;
      used = true;
      return words[n - 1] as string;
    },
  );
  if (used || args.trim() === "") return text;
  return `${text}\n\nARGUMENTS: ${args}`;
}
