// Claude Code's `claude -p` message shapes (its stream-json lines), made from zeng's events.
import { randomUUID } from "node:crypto";
import {
  type ClaudePermissionDenial,
  claudeAssistantMessage,
  claudeResultMessage,
  claudeStreamEvent,
  claudeToolResultMessage,
} from "@z-engine/engine";
import type { EventEnvelope } from "@z-engine/protocol";
import type { RunEnd } from "./result.js";

type Json = Record<string, unknown>;

/** An `assistant` line for a finished assistant message. */
export const assistantLine = (envelope: EventEnvelope, model: string): Json | undefined =>
  claudeAssistantMessage(envelope, model);

/** A `user` line with the tool result of a finished tool call. */
export const toolResultLine = (envelope: EventEnvelope): Json | undefined =>
  claudeToolResultMessage(envelope);

/** A `stream_event` line for a text delta (`--include-partial-messages`). */
export const streamEventLine = (envelope: EventEnvelope): Json | undefined =>
  claudeStreamEvent(envelope);

/** What the `system` init line says. */
export interface InitFacts {
  readonly cwd: string;
  readonly model: string;
  readonly permissionMode: string;
  /** The session's MCP servers and their states, once it is open. */
  readonly mcpServers?: ReadonlyArray<{ readonly name: string; readonly status: string }>;
  /** The session's `/` command names, once it is open. */
  readonly slashCommands?: readonly string[];
}

/** The `system` `init` line. */
export function initLine(sessionId: string, facts: InitFacts): Json {
  return {
    type: "system",
    subtype: "init",
    cwd: facts.cwd,
    session_id: sessionId,
    model: facts.model,
    permissionMode: facts.permissionMode,
    ...(facts.mcpServers ? { mcp_servers: facts.mcpServers } : {}),
    ...(facts.slashCommands ? { slash_commands: facts.slashCommands } : {}),
    apiKeySource: "none",
    uuid: randomUUID(),
  };
}

/** The `result` line (also the whole of `--output-format json` in Claude Code's shape). */
export function resultMessage(
  end: RunEnd,
  text: string,
  numTurns: number,
  denials: readonly ClaudePermissionDenial[] = [],
): Json {
  return claudeResultMessage({ ...end, text, numTurns, denials });
}
