// SDK messages made from the engine's events and turn summaries.
import { randomUUID } from "node:crypto";
import type { TurnSummary } from "@z-engine/engine";
import type { ContentBlock, EventEnvelope, ToolDisplay, Usage } from "@z-engine/protocol";
import type {
  SDKAssistantMessage,
  SDKContentBlock,
  SDKPartialAssistantMessage,
  SDKPermissionDenial,
  SDKResultMessage,
  SDKUsage,
  SDKUserMessage,
} from "./types.js";

/** Usage in Anthropic's field names. */
export function sdkUsage(usage: Usage): SDKUsage {
  return {
    input_tokens: usage.input,
    output_tokens: usage.output,
    cache_creation_input_tokens: usage.cacheWrite,
    cache_read_input_tokens: usage.cacheRead,
  };
}

function block(b: ContentBlock): SDKContentBlock | undefined {
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

/** The SDK message an event of the main agent stands for, if any. */
export function messageOf(
  envelope: EventEnvelope,
  model: string,
  partial: boolean,
): SDKAssistantMessage | SDKUserMessage | SDKPartialAssistantMessage | undefined {
  const e = envelope.event;
  const common = { parent_tool_use_id: null, session_id: envelope.sessionId, uuid: randomUUID() };
  if (e.type === "assistantFinished")
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
        usage: sdkUsage(e.usage),
      },
      ...common,
    };
  if (e.type === "toolFinished")
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
      ...common,
    };
  if (e.type === "textDelta" && partial)
    return {
      type: "stream_event",
      event: { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: e.text } },
      ...common,
    };
  return undefined;
}

/** What a turn ended with, beside its summary. */
export interface ResultFacts {
  readonly sessionId: string;
  readonly text: string;
  readonly rounds: number;
  readonly denials: readonly SDKPermissionDenial[];
  readonly structuredOutput?: unknown;
  readonly structuredError?: string;
}

function subtypeOf(summary: TurnSummary, facts: ResultFacts): SDKResultMessage["subtype"] {
  if (summary.outcome === "completed")
    return facts.structuredError ? "error_max_structured_output_retries" : "success";
  if (summary.outcome === "budgetExhausted")
    return summary.reason?.includes("max_turns") ? "error_max_turns" : "error_max_budget_usd";
  return "error_during_execution";
}

/** The `result` message of a turn. */
export function resultOf(summary: TurnSummary, facts: ResultFacts): SDKResultMessage {
  const subtype = subtypeOf(summary, facts);
  return {
    type: "result",
    subtype,
    is_error: subtype !== "success",
    duration_ms: summary.durationMs,
    duration_api_ms: summary.durationMs,
    num_turns: facts.rounds,
    result:
      subtype === "success" ? facts.text : (facts.structuredError ?? summary.reason ?? facts.text),
    session_id: facts.sessionId,
    total_cost_usd: summary.usage.costUsd,
    usage: sdkUsage(summary.usage),
    permission_denials: [...facts.denials],
    ...(facts.structuredOutput === undefined ? {} : { structured_output: facts.structuredOutput }),
    badge: summary.badge,
    uuid: randomUUID(),
  };
}
