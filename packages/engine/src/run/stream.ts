import {
  type Message,
  MessageAssembler,
  type ModelClient,
  type ModelError,
  type ModelRequest,
  newMessageId,
  type StopReason,
  type ToolUseBlock,
  type TurnId,
  type Usage,
} from "@z-engine/protocol";
import { uniqueToolUses } from "../batch/unique-ids.js";
import type { SessionCore } from "../core/session-core.js";
import type { AgentRun, TranscriptSink } from "../core/agent-context.js";
import { recordSpend, type SpendTurn } from "../core/spend.js";

/** What streaming a round takes of its session: the catalog's prices, the estimator to teach, the usage total. */
export type StreamCore = Pick<SessionCore, "catalog" | "estimator" | "state">;

/** What one model call produced. */
export interface RoundResponse {
  /** The recorded assistant message; null when the model said nothing. */
  readonly message: Message | null;
  /** The tool calls to run (none when the stream ended in an error). */
  readonly toolUses: readonly ToolUseBlock[];
  /** Tool calls whose arguments were not valid JSON, with why. */
  readonly invalidInputs: ReadonlyMap<string, string>;
  readonly usage: Usage;
  readonly stopReason: StopReason | undefined;
  readonly error: ModelError | undefined;
}

/** Why a tool call whose input the response's output limit cut off was not run. */
export const MAX_TOKENS_CUT =
  "the response reached its output token limit (max_tokens) before this call's input was complete, so the call was not run; send it again with less in one call";

async function consume(
  transcript: TranscriptSink,
  client: ModelClient,
  request: ModelRequest,
  ids: { turnId: TurnId; messageId: Message["id"] },
  signal: AbortSignal,
  onSent: (() => void) | undefined,
): Promise<{ assembler: MessageAssembler; inputErrors: (string | undefined)[] }> {
  const assembler = new MessageAssembler();
  // Each tool call's input error, in the order the calls came (ids may repeat).
  const inputErrors: (string | undefined)[] = [];
  const scope = { turnId: ids.turnId };
  try {
    const options = onSent ? { signal, onSent } : { signal };
    for await (const event of client.stream(request, options)) {
      // A client that never says the request went out has sent it once anything comes back.
      onSent?.();
      assembler.push(event);
      switch (event.type) {
        case "textDelta":
          transcript.emit({ type: "textDelta", messageId: ids.messageId, text: event.text }, scope);
          break;
        case "thinkingDelta":
          transcript.emit(
            { type: "thinkingDelta", messageId: ids.messageId, text: event.text },
            scope,
          );
          break;
        case "retrying":
          transcript.emit(
            {
              type: "retrying",
              attempt: event.attempt,
              maxAttempts: event.maxAttempts,
              delayMs: event.delayMs,
              reason: event.error.kind,
              message: event.error.message,
            },
            scope,
          );
          break;
        case "fallback":
          await transcript.notice(
            "warning",
            "model.fallback",
            `${event.fromModel} failed (${event.error.message}); trying ${event.toModel}`,
            scope,
          );
          break;
        case "toolCall":
          inputErrors.push(event.inputError);
          break;
        default:
          break;
      }
      if (event.type === "stop" || event.type === "error") break;
    }
  } catch (error) {
    // A host's client broke the contract by throwing: treat it as a failed call.
    assembler.push({
      type: "error",
      error: { kind: "unknown", message: `model client threw: ${(error as Error).message}` },
    });
  }
  // A call the output limit cut off is not run (its input is incomplete); the model is told why.
  if (assembler.stopReason === "maxTokens")
    for (const [i, problem] of inputErrors.entries())
      if (problem !== undefined) inputErrors[i] = MAX_TOKENS_CUT;
  if (assembler.stopReason === undefined && assembler.error === undefined) {
    assembler.push({
      type: "error",
      error: signal.aborted
        ? { kind: "cancelled", message: "cancelled" }
        : { kind: "unknown", message: "the model stream ended without a stop" },
    });
  }
  return { assembler, inputErrors };
}

/**
 * Streams one response: `assistantStarted`, live deltas and `retrying` events, then records
 * the assistant message (`assistantFinished`) in the run's transcript and its priced usage
 * in `turn`'s usage and the session log (`costUpdated`, {@link recordSpend}), tagged with the
 * run's agent id when it has one. When the
 * stream ends in an error, the tool calls it made are dropped from the record (none of them
 * will run), so the transcript stays valid. Never throws.
 */
export async function streamRound(
  core: StreamCore,
  run: Pick<AgentRun, "transcript" | "signal" | "agentId">,
  client: ModelClient,
  request: ModelRequest,
  turn: SpendTurn,
  onSent?: () => void,
): Promise<RoundResponse> {
  const { transcript, signal } = run;
  const turnId = turn.turnId;
  const messageId = newMessageId();
  const scope = { turnId };
  const contextWindow = core.catalog.info(request.model).contextWindow;
  transcript.emit(
    { type: "assistantStarted", messageId, model: request.model, contextWindow },
    scope,
  );
  const { assembler, inputErrors } = await consume(
    transcript,
    client,
    request,
    { turnId, messageId },
    signal,
    onSent,
  );
  const error = assembler.error;
  // Every call gets its own id before the message is recorded (a repeated id gets one).
  const unique = uniqueToolUses(assembler.content, inputErrors);
  const invalid = unique.invalid;
  const content = error ? unique.content.filter((b) => b.type !== "toolUse") : unique.content;
  core.estimator.observe(request, assembler.usage);
  // Usage goes to the turn and the session log whoever spent it (a subagent's carries its
  // id), so the session's total and its cost cap count every agent, live and on replay.
  const usage = core.catalog.price(request.model, assembler.usage);
  let message: Message | null = null;
  if (content.length > 0) {
    message = { id: messageId, role: "assistant", content };
    await transcript.record(
      "message",
      { message, turnId },
      { type: "assistantFinished", message, usage, stopReason: assembler.stopReason ?? "other" },
      scope,
    );
  }
  await recordSpend(
    core,
    request.model,
    assembler.usage,
    { turn, ...(run.agentId ? { agentId: run.agentId } : {}) },
    usage,
  );
  if (!error && unique.renamed.length > 0)
    await transcript.notice(
      "warning",
      "model.duplicateToolId",
      `The model gave ${unique.renamed.length} tool call${unique.renamed.length > 1 ? "s" : ""} an id already used in its answer; renamed ${unique.renamed.map(([a, b]) => `${a} to ${b}`).join(", ")} so that each call gets its own result.`,
      scope,
    );
  const toolUses = content.filter((b): b is ToolUseBlock => b.type === "toolUse");
  return {
    message,
    toolUses,
    invalidInputs: invalid,
    usage,
    stopReason: assembler.stopReason,
    error,
  };
}
