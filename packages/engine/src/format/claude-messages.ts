// Claude Code's message shapes (`claude -p`'s stream-json lines, the Agent SDK's messages),
// made from zeng's events: shared by the CLI's Claude-shaped output and @z-engine/agent-sdk.
import { randomUUID } from "node:crypto";
import type {
  Badge,
  ContentBlock,
  EventEnvelope,
  ToolDisplay,
  TurnOutcome,
  Usage,
} from "@z-engine/protocol";

/** Token usage in Anthropic's field names. */
export type ClaudeUsage = {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
};

/** A content block of an assistant message. */
export type ClaudeContentBlock =
  | { type: "text"; text: string }
  | { type: "thinking"; thinking: string }
  | { type: "tool_use"; id: string; name: string; input: unknown };

/** A finished assistant message of the main agent. */
export type ClaudeAssistantMessage = {
  type: "assistant";
  message: {
    id: string;
    type: "message";
    role: "assistant";
    model: string;
    content: ClaudeContentBlock[];
    stop_reason: string | null;
    stop_sequence: string | null;
    usage: ClaudeUsage;
  };
  parent_tool_use_id: string | null;
  session_id: string;
  uuid: string;
};

/** A tool result, as the user message that carries it. */
export type ClaudeToolResultMessage = {
  type: "user";
  message: {
    role: "user";
    content: Array<{
      type: "tool_result";
      tool_use_id: string;
      content: string;
      is_error: boolean;
    }>;
  };
  parent_tool_use_id: string | null;
  session_id: string;
  uuid: string;
};

/** A streamed text delta. */
export type ClaudeStreamEvent = {
  type: "stream_event";
  event: {
    type: "content_block_delta";
    index: number;
    delta: { type: "text_delta"; text: string };
  };
  parent_tool_use_id: string | null;
  session_id: string;
  uuid: string;
};

/** A call the permission gate refused. */
export type ClaudePermissionDenial = {
  tool_name: string;
  tool_use_id: string;
  tool_input: Record<string, unknown>;
};

/** The `result` message's subtypes. */
export type ClaudeResultSubtype =
  | "success"
  | "error_max_turns"
  | "error_max_budget_usd"
  | "error_during_execution"
  | "error_max_structured_output_retries";

/** The last message of a turn (all of `--output-format json`), with zeng's badge. */
export type ClaudeResultMessage = {
  type: "result";
  subtype: ClaudeResultSubtype;
  is_error: boolean;
  duration_ms: number;
  duration_api_ms: number;
  num_turns: number;
  /** The final text (success), else the reason the turn ended. */
  result: string;
  session_id: string;
  total_cost_usd: number;
  usage: ClaudeUsage;
  permission_denials: ClaudePermissionDenial[];
  structured_output?: unknown;
  /** zeng's verification badge of the turn (read from the check records). */
  badge: Badge;
  uuid: string;
};

/** What a result message is made of: how the turn ended, and what its events said. */
export interface ClaudeResultFacts {
  readonly outcome: TurnOutcome | null;
  readonly reason?: string;
  readonly usage: Usage;
  readonly badge: Badge;
  readonly durationMs: number;
  readonly sessionId: string;
  /** The main agent's last text. */
  readonly text: string;
  /** The main agent's requests. */
  readonly numTurns: number;
  readonly denials: readonly ClaudePermissionDenial[];
  /** A JSON-schema run: the validated answer, or why none was accepted. */
  readonly structuredOutput?: unknown;
  readonly structuredError?: string;
}

/** Usage in Anthropic's field names. */
export function claudeUsage(usage: Usage): ClaudeUsage {
  return {
    input_tokens: usage.input,
    output_tokens: usage.output,
    cache_creation_input_tokens: usage.cacheWrite,
    cache_read_input_tokens: usage.cacheRead,
  };
}

function block(b: ContentBlock): ClaudeContentBlock | undefined {
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

function displayText(display: ToolDisplay | undefined, status: string): string {
  if (!display) return status;
  if (display.kind === "text") return display.text;
  if (display.kind === "diff") return display.diff;
  if (display.kind === "command") return display.output ?? "";
  return status;
}

const common = (envelope: EventEnvelope) => ({
  parent_tool_use_id: null,
  session_id: envelope.sessionId,
  uuid: randomUUID(),
});

/** The `assistant` message of an `assistantFinished` event, else undefined. */
export function claudeAssistantMessage(
  envelope: EventEnvelope,
  model: string,
): ClaudeAssistantMessage | undefined {
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
    ...common(envelope),
  };
}

/** The `user` tool-result message of a `toolFinished` event, else undefined. */
export function claudeToolResultMessage(
  envelope: EventEnvelope,
): ClaudeToolResultMessage | undefined {
  const e = envelope.event;
  if (e.type !== "toolFinished") return undefined;
  const content = displayText(e.display, e.status);
  return {
    type: "user",
    message: {
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: e.toolCallId, content, is_error: e.status !== "ok" },
      ],
    },
    ...common(envelope),
  };
}

/** The `stream_event` of a `textDelta` event, else undefined. */
export function claudeStreamEvent(envelope: EventEnvelope): ClaudeStreamEvent | undefined {
  const e = envelope.event;
  if (e.type !== "textDelta") return undefined;
  return {
    type: "stream_event",
    event: { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: e.text } },
    ...common(envelope),
  };
}

function subtypeOf(facts: ClaudeResultFacts): ClaudeResultSubtype {
  if (facts.outcome === "completed")
    return facts.structuredError ? "error_max_structured_output_retries" : "success";
  if (facts.outcome === "budgetExhausted")
    return facts.reason?.includes("max_turns") ? "error_max_turns" : "error_max_budget_usd";
  return "error_during_execution";
}

/** The `result` message of a turn. */
export function claudeResultMessage(facts: ClaudeResultFacts): ClaudeResultMessage {
  const subtype = subtypeOf(facts);
  return {
    type: "result",
    subtype,
    is_error: subtype !== "success",
    duration_ms: facts.durationMs,
    duration_api_ms: facts.durationMs,
    num_turns: facts.numTurns,
    result:
      subtype === "success" ? facts.text : (facts.structuredError ?? facts.reason ?? facts.text),
    session_id: facts.sessionId,
    total_cost_usd: facts.usage.costUsd,
    usage: claudeUsage(facts.usage),
    permission_denials: [...facts.denials],
    ...(facts.structuredOutput === undefined ? {} : { structured_output: facts.structuredOutput }),
    badge: facts.badge,
    uuid: randomUUID(),
  };
}

/**
 * The text of a Claude user message's `content` (a string, or blocks whose text blocks are
 * joined with newlines), or undefined when it has none. Never throws.
 */
export function claudeUserText(content: unknown): string | undefined {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return undefined;
  const parts = content
    .filter(
      (b): b is { type: "text"; text: string } => b?.type === "text" && typeof b.text === "string",
    )
    .map((b) => b.text);
  return parts.length > 0 ? parts.join("\n") : undefined;
}
