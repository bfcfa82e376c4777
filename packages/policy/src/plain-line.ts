import type { ParsedCommand, SimpleCommand } from "./action.js";
import { unwrapCommand } from "./shell-wrappers.js";

/**
 * Plain words separated by spaces: letters, digits and `_ . / : @ + , -` only. Nothing bash
 * reads specially can appear: no quote, escape, expansion (`$`, backtick, `~`, glob, brace),
 * operator (`; & | < > ( )`), comment, assignment (`=`), job spec (`%`), tab or newline.
 */
const PLAIN_LINE = /^[A-Za-z0-9_./:@+,-]+(?: +[A-Za-z0-9_./:@+,-]+)*$/;

/** Longest line taken here; longer ones go to the parser. */
const MAX_PLAIN = 4096;

/**
 * First words bash or tree-sitter-bash read as more than a command name: reserved words and
 * the declaration and test commands, which the parser gives their own nodes. (Later on a
 * plain line they are arguments, to both.)
 */
const SPECIAL_WORDS = new Set([
  "if",
  "then",
  "else",
  "elif",
  "fi",
  "case",
  "esac",
  "for",
  "select",
  "while",
  "until",
  "do",
  "done",
  "in",
  "function",
  "time",
  "coproc",
  "declare",
  "typeset",
  "export",
  "readonly",
  "local",
  "unset",
  "test",
]);

/**
 * A line of plain words split without the parser, exactly as the parser splits it (one
 * simple command, each word as written, wrappers such as `env` or `timeout` unwrapped the
 * same way), or undefined for any other line: it then needs tree-sitter-bash. A session's
 * first shell command (often `npm test`, `git status`, `pytest -x`) so needs no grammar
 * loaded first (issue 18).
 */
export function parsePlainLine(source: string): ParsedCommand | undefined {
  if (source.length > MAX_PLAIN || !PLAIN_LINE.test(source)) return undefined;
  const words = source.split(/ +/);
  if (SPECIAL_WORDS.has(words[0] as string)) return undefined;
  const unwrapped = unwrapCommand(words);
  // A wrapper that runs a shell string (`bash -c`, `eval`) needs that string parsed.
  if (unwrapped.scripts.length > 0) return undefined;
  const commands: SimpleCommand[] = [];
  if (unwrapped.keepOuter) commands.push({ argv: words, text: source });
  for (const inner of unwrapped.inner) commands.push({ argv: inner, text: source });
  return { source, commands, redirections: [] };
}
