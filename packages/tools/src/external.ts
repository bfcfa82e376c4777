/**
 * The one place this package reaches into policy, host and prompts.
 */
export type { Action, ParsedCommand } from "@z-engine/policy";
export { commandPaths, displayCommand } from "@z-engine/policy";
import { BUILTIN_TOOL_NAMES, type BuiltinToolName, toolDescription } from "@z-engine/prompts";
import {
  isReadOnlyCommand,
  type ParsedCommand,
  parseCommand as policyParseCommand,
  parseCommandSync,
} from "@z-engine/policy";
export type {
  BackgroundProcess,
  CommandRequest,
  CommandResult,
  Shell,
  ShellSession,
} from "@z-engine/host";

/**
 * Parses a command line with policy's shell parser. Never rejects: when the parser cannot
 * load, the command comes back with `error` set, so the gate asks.
 */
export async function parseCommand(text: string): Promise<ParsedCommand> {
  try {
    return await policyParseCommand(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      source: text,
      commands: [],
      redirections: [],
      error: `shell parser unavailable: ${reason}`,
    };
  }
}

/**
 * True when the command only reads, judged synchronously (a line of plain words at once,
 * any other once the parser has loaded); else false. Never throws.
 */
export function isReadOnlyCommandText(text: string): boolean {
  try {
    return isReadOnlyCommand(parseCommandSync(text));
  } catch {
    return false;
  }
}

/**
 * A built-in tool's description from @z-engine/prompts; `fallback` when prompts has none
 * for that name (a host's own tool, or a prompts build that lacks it). Never throws.
 */
export function loadToolDescription(name: string, fallback: string): string {
  if (!(BUILTIN_TOOL_NAMES as readonly string[]).includes(name)) return fallback;
  try {
    return toolDescription(name as BuiltinToolName);
  } catch {
    return fallback;
  }
}
