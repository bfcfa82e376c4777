// Claude Code's `claude -p` message shapes (its stream-json lines), made from zeng's events.
import { randomUUID } from "node:crypto";
import type { ContentBlock, EventEnvelope, ToolDisplay, Usage } from "@z-engine/protocol";
import type { RunEnd } from "./result.js";

type Json = Record<string, unknown>;

/** Usage as Claude Code's messages carry it (Anthropic's field names). */
export function claudeUsage(usage: Usage): Json {
  return {
    input_tokens: usage.input,
    output_tokens: usage.output,
    cache_creation_input_tokens: usage.cacheWrite,
    cache_read_input_tokens: usage.cacheRead,
  };
}

function block(b: ContentBlock): Json | undefined {
  if (b.type === "text") return { type: "text", text: b.text };
  if (b.type === "thinking") return { type: "thinking", thinking: b.thinking };
  if (b.type === "toolUse") return { type: "tool_use", id: b.id, name: b.name, input: b.input };
  return undefined;
}

const STOP: Readonly<Record<string, string>> = {
  endTurn: "end_turn",
  toolUse: "tool_use",
  maxTokens: "max_tokens",
  stopSequence: "stop_sequence",
};

/** An `assistant` line for a finished assistant message. */
export function assistantLine(envelope: EventEnvelope, model: string): Json | undefined {
  const e = envelope.event;
  if (e.type !== "assistantFinished") return undefined;
  return {
    type: "assistant",
    message: {
      id: e.message.id,
      type: "message",
      role: "assistant",
      model,
      content: e.message.content.map(block).filter((b) => b !== undefined),
      stop_reason: STOP[e.stopReason] ?? e.stopReason,
      stop_sequence: null,
      usage: claudeUsage(e.usage),
    },
    parent_tool_use_id: null,
    session_id: envelope.sessionId,
    uuid: randomUUID(),
  };
}

function displayText(display: ToolDisplay | undefined, status: string): string {
  if (!display) return status;
  if (display.kind === "text") return display.text;
  if (display.kind === "diff") return display.diff;
  if (display.kind === "command") return display.output ?? "";
  return status;
}

/** A `user` line with the tool result of a finished tool call. */
export function toolResultLine(envelope: EventEnvelope): Json | undefined {
  const e = envelope.event;
  if (e.type !== "toolFinished") return undefined;
  return {
    type: "user",
    message: {
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: e.toolCallId,
          content: displayText(e.display, e.status),
          is_error: e.status !== "ok",
        },
      ],
    },
    parent_tool_use_id: null,
    session_id: envelope.sessionId,
    uuid: randomUUID(),
  };
}

/** A `stream_event` line for a text delta (`--include-partial-messages`). */
export function streamEventLine(envelope: EventEnvelope): Json | undefined {
  const e = envelope.event;
  if (e.type !== "textDelta") return undefined;
  return {
    type: "stream_event",
    event: { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: e.text } },
    parent_tool_use_id: null,
    session_id: envelope.sessionId,
    uuid: randomUUID(),
  };
}

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

function subtype(end: RunEnd): string {
  if (end.outcome === "completed")
    return end.structuredError ? "error_max_structured_output_retries" : "success";
  if (end.outcome === "budgetExhausted")
    return end.reason?.includes("max_turns") ? "error_max_turns" : "error_max_budget_usd";
  return "error_during_execution";
}

/** The `result` line (also the whole of `--output-format json` in Claude Code's shape). */
export function resultMessage(
  end: RunEnd,
  text: string,
  numTurns: number,
  denials: readonly Json[] = [],
): Json {
  const kind = subtype(end);
  return {
    type: "result",
    subtype: kind,
    is_error: kind !== "success",
    duration_ms: end.durationMs,
    duration_api_ms: end.durationMs,
    num_turns: numTurns,
    result: kind === "success" ? text : (end.structuredError ?? end.reason ?? text),
    session_id: end.sessionId,
    total_cost_usd: end.usage.costUsd,
    usage: claudeUsage(end.usage),
    permission_denials: denials,
    ...(end.structuredOutput === undefined ? {} : { structured_output: end.structuredOutput }),
    badge: end.badge,
    uuid: randomUUID(),
  };
}
