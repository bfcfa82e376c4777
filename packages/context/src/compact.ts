import {
  type Compaction,
  applyCompaction,
  type Message,
  type MessageId,
  type ModelClient,
  type ModelRequest,
  newMessageId,
} from "@z-engine/protocol";
import { compactionPrompt } from "@z-engine/prompts";
import { compactionLedger, type KeptTask, keptText, latestRequest } from "./compaction-ledger.js";
import { findSplitPoint } from "./split.js";
import type { TokenEstimator } from "./tokens.js";
import { describeDropped, renderTranscript } from "./transcript-text.js";

/** What the PreCompact hook point is told before the summary is asked for. */
export interface CompactionPlan {
  readonly trigger: Compaction["trigger"];
  readonly split: number;
  readonly dropped: readonly Message[];
  readonly kept: readonly Message[];
}

/** The PreCompact answer: go ahead (optionally with extra instructions for the summary) or stop. */
export type BeforeCompactResult =
  | { readonly proceed: true; readonly instructions?: string }
  | { readonly proceed: false; readonly reason: string };

/** Everything one compaction needs; services are passed in. */
export interface CompactOptions {
  readonly messages: readonly Message[];
  /** The fast model's client. */
  readonly client: ModelClient;
  readonly model: string;
  readonly estimator: TokenEstimator;
  readonly trigger: Compaction["trigger"];
  /** Recent history kept as it is (see `findSplitPoint`). */
  readonly keepRecentTokens: number;
  readonly maxSummaryTokens?: number;
  /** The PreCompact hook point, called once a split is planned. */
  readonly beforeCompact?: (
    plan: CompactionPlan,
  ) => Promise<BeforeCompactResult> | BeforeCompactResult;
  /** Cancels the summary call; a cancelled compaction changes nothing. */
  readonly signal?: AbortSignal;
  /** Id for the summary message (default `newMessageId()`). */
  readonly newId?: () => MessageId;
  /**
   * The open todo items (`[status] text`), quoted verbatim after the summary with the user's
   * latest request when the split drops it, so the task survives the compaction.
   */
  readonly openTodos?: readonly string[];
}

/** Why a compaction did not happen; the history is unchanged in every case. */
export type CompactFailureStage = "nothing" | "hook" | "cancelled" | "model";

/** A compaction's outcome: the record and the new working set, or why nothing changed. */
export type CompactResult =
  | { readonly ok: true; readonly compaction: Compaction; readonly messages: Message[] }
  | { readonly ok: false; readonly stage: CompactFailureStage; readonly reason: string };

function summaryRequest(
  options: CompactOptions,
  dropped: readonly Message[],
  extra?: string,
): ModelRequest {
  const ask = [
    "Here is the part of the session to summarise:",
    "<transcript>",
    renderTranscript(dropped),
    "</transcript>",
    "Write the summary now.",
  ];
  if (extra !== undefined && extra.trim() !== "")
    ask.push(`Additional instructions: ${extra.trim()}`);
  return {
    model: options.model,
    system: [{ id: "compaction", text: compactionPrompt(), cacheable: false }],
    tools: [],
    messages: [{ role: "user", content: [{ type: "text", text: ask.join("\n\n") }] }],
    cacheMarks: [],
    maxTokens: options.maxSummaryTokens ?? 4096,
  };
}

/** Streams the summary; resolves to its text or to why there is none. Never rejects. */
async function summarise(
  client: ModelClient,
  request: ModelRequest,
  signal: AbortSignal | undefined,
): Promise<{ text: string } | { stage: CompactFailureStage; reason: string }> {
  let text = "";
  try {
    for await (const event of client.stream(request, signal ? { signal } : undefined)) {
      if (event.type === "textDelta") text += event.text;
      else if (event.type === "error") {
        const stage = event.error.kind === "cancelled" ? "cancelled" : "model";
        return { stage, reason: `summary failed (${event.error.kind}): ${event.error.message}` };
      } else if (event.type === "stop") break;
    }
  } catch (error) {
    return { stage: "model", reason: `summary failed: ${String(error)}` };
  }
  if (signal?.aborted) return { stage: "cancelled", reason: "compaction cancelled" };
  if (text.trim() === "")
    return { stage: "model", reason: "summary failed: the model returned no text" };
  return { text: text.trim() };
}

/**
 * Summarises older history with the (fast) model behind `client`. Plans a legal split
 * (`findSplitPoint`), calls `beforeCompact` (PreCompact), asks for the summary, and returns
 * the `Compaction` record with the working set after it: a summary user message, naming
 * what it dropped, in place of the dropped messages. On any failure (nothing to drop, the
 * hook said no, cancellation, a model error or an empty answer) it returns
 * `{ ok: false, stage, reason }` and the history stays as it was. Never rejects.
 */
export async function compact(options: CompactOptions): Promise<CompactResult> {
  const { messages, estimator } = options;
  const split = findSplitPoint(messages, { estimator, keepRecentTokens: options.keepRecentTokens });
  if (split === null)
    return { ok: false, stage: "nothing", reason: "nothing old enough to compact" };
  const dropped = messages.slice(0, split);
  const plan: CompactionPlan = {
    trigger: options.trigger,
    split,
    dropped,
    kept: messages.slice(split),
  };
  let instructions: string | undefined;
  if (options.beforeCompact !== undefined) {
    try {
      const answer = await options.beforeCompact(plan);
      if (!answer.proceed) return { ok: false, stage: "hook", reason: answer.reason };
      instructions = answer.instructions;
    } catch (error) {
      return { ok: false, stage: "hook", reason: `PreCompact failed: ${String(error)}` };
    }
  }
  if (options.signal?.aborted)
    return { ok: false, stage: "cancelled", reason: "compaction cancelled" };
  const outcome = await summarise(
    options.client,
    summaryRequest(options, dropped, instructions),
    options.signal,
  );
  if (!("text" in outcome)) return { ok: false, ...outcome };
  const request = latestRequest(messages);
  const task: KeptTask = {
    ...(request && request.index < split ? { request: request.text } : {}),
    todos: options.openTodos ?? [],
  };
  const summary: Message = {
    id: (options.newId ?? newMessageId)(),
    role: "user",
    content: [{ type: "text", text: summaryText(dropped, outcome.text, task) }],
  };
  const record = {
    trigger: options.trigger,
    summary,
    droppedMessageIds: dropped.map((m) => m.id),
    tokensBefore: estimator.estimateMessages(messages),
    tokensAfter: 0,
    ledger: compactionLedger(dropped, task),
  };
  const after = applyCompaction(messages, record);
  const compaction: Compaction = { ...record, tokensAfter: estimator.estimateMessages(after) };
  return { ok: true, compaction, messages: after };
}

function summaryText(dropped: readonly Message[], summary: string, task: KeptTask): string {
  return [
    "<compaction-summary>",
    "The earlier part of this conversation was compacted into the summary below.",
    describeDropped(dropped),
    "",
    summary + keptText(task),
    "</compaction-summary>",
  ].join("\n");
}
