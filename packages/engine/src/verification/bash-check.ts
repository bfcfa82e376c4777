import { resolve } from "node:path";
import { reminderBlock } from "@z-engine/context";
import type { CheckDefinition, TextBlock } from "@z-engine/protocol";

/** A command's words as a check's command is compared with them: whitespace folded, `npm run test` as `npm test`. */
function normalized(command: string): string {
  const words = command.trim().split(/\s+/);
  if (words[0] === "npm" && words[1] === "run" && words[2] === "test") words.splice(1, 1);
  return words.join(" ");
}

const unquote = (word: string) => word.replace(/^(["'])(.*)\1$/, "$2");

/** The folder and command of `cd DIR && COMMAND` (one `cd`, as models often write it), else the command in `cwd`. */
function splitCd(command: string, cwd: string): { command: string; cwd: string } {
  const m = /^\s*cd\s+("[^"]*"|'[^']*'|[^\s;&|]+)\s*&&\s*([\s\S]+)$/.exec(command);
  if (!m) return { command, cwd };
  return { command: m[2] as string, cwd: resolve(cwd, unquote(m[1] as string)) };
}

/**
 * The check whose own command a Bash command is: the same command (whitespace folded; `npm run
 * test` is `npm test`; one leading `cd DIR &&` moves the folder) run in the check's folder
 * (`cwd` is the shell's folder before the command, `projectRoot` the folder check folders are
 * relative to). Undefined when none matches. Pure.
 */
export function checkRunThroughBash(
  checks: readonly CheckDefinition[],
  command: string,
  cwd: string,
  projectRoot: string,
): CheckDefinition | undefined {
  const split = splitCd(command, cwd);
  const wanted = normalized(split.command);
  return checks.find(
    (c) => normalized(c.command) === wanted && resolve(projectRoot, c.cwd) === split.cwd,
  );
}

/**
 * The reminder a Bash result carries when its command was a check's: the run is not recorded,
 * so it does not count for the badge, and Verify records it.
 */
export function bashCheckReminder(check: CheckDefinition): TextBlock {
  return reminderBlock(
    `\`${check.command}\` is the project's check ${check.id}. This run through Bash is not recorded, so it does not count as evidence and the turn stays Unverified: run it with Verify (checks: ["${check.id}"]) to record it.`,
  );
}
