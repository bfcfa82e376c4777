import { z } from "zod";
import { Badge, CheckRecord } from "./check.js";
import { Message } from "./content.js";
import { ToolDisplay } from "./display.js";
import {
  AgentId,
  ApprovalId,
  MessageId,
  PlanId,
  QuestionId,
  SessionId,
  ToolCallId,
  TurnId,
} from "./ids.js";
import { McpServerStatus } from "./mcp.js";
import { Effort, ModelErrorKind, StopReason } from "./model.js";
import { parseJsonWith, parseWith, type ParseResult } from "./parse.js";
import {
  ApprovalDecision,
  CheckpointInfo,
  JobInfo,
  NoticeLevel,
  PermissionMode,
  Plan,
  Question,
  QuestionAnswers,
  RewindRestore,
  TodoItem,
  TurnOutcome,
} from "./records.js";
import { SpendSource, Usage } from "./usage.js";
import {
  CompletionClaim,
  DecisionRoute,
  DecisionTrace,
  Suggestion,
  TaskViewInfo,
  TurnTone,
  Urgency,
} from "./decisions.js";
import { lazily, once } from "./lazy.js";

const event = <T extends string, S extends z.ZodRawShape>(type: T, shape: S) =>
  z.object({ type: z.literal(type), ...shape });

// Every schema below is built on first use (lazy.ts): `zeng -p` reaches its first request
// without parsing an event, and building them all took milliseconds of its start (issue 18).
const compactionMarker = once(() =>
  z.object({
    summaryMessageId: MessageId,
    droppedMessages: z.number().int().nonnegative(),
    tokensBefore: z.number().int().nonnegative(),
    tokensAfter: z.number().int().nonnegative(),
  }),
);
/** What a compaction left in the transcript, for the host's divider. */
export const CompactionMarker = lazily(compactionMarker);
export type CompactionMarker = z.infer<typeof CompactionMarker>;

// The events of lasting facts: each is also a record of the session log, and these are the one
// declaration of its fields (the store derives its records from them, see lastingEvents).
const TurnStartedEvent = () =>
  event("turnStarted", {
    turnId: TurnId,
    userMessageId: MessageId,
    prompt: z.string(),
  });
const ToolFinishedEvent = () =>
  event("toolFinished", {
    toolCallId: ToolCallId,
    toolName: z.string(),
    status: z.enum(["ok", "error", "denied", "cancelled"]),
    display: ToolDisplay.optional(),
    durationMs: z.number().nonnegative(),
    writtenPaths: z.array(z.string()),
  });
const ApprovalRequestedEvent = () =>
  event("approvalRequested", {
    approvalId: ApprovalId,
    toolCallId: ToolCallId,
    toolName: z.string(),
    title: z.string(),
    reason: z.string(),
    preview: ToolDisplay.optional(),
    /** Rules the host may offer for "Always allow", e.g. `Bash(npm test:*)`. */
    suggestedRules: z.array(z.string()),
  });
const ApprovalResolvedEvent = () =>
  event("approvalResolved", {
    approvalId: ApprovalId,
    toolCallId: ToolCallId,
    decision: ApprovalDecision,
    /** Who answered: the user, a hook, headless mode (no one to ask), or a cancel. */
    by: z.enum(["user", "hook", "headless", "cancelled"]),
    reason: z.string().optional(),
  });
const QuestionAskedEvent = () => event("questionAsked", { question: Question });
const QuestionAnsweredEvent = () =>
  event("questionAnswered", {
    questionId: QuestionId,
    answers: QuestionAnswers,
    dismissed: z.boolean(),
  });
const PlanProposedEvent = () => event("planProposed", { plan: Plan });
const PlanResolvedEvent = () =>
  event("planResolved", {
    planId: PlanId,
    approved: z.boolean(),
    feedback: z.string().optional(),
    dismissed: z.boolean(),
  });
const TodosUpdatedEvent = () => event("todosUpdated", { todos: z.array(TodoItem) });
const NoticeEvent = () =>
  event("notice", { level: NoticeLevel, code: z.string(), message: z.string() });
const CheckRecordedEvent = () => event("checkRecorded", { record: CheckRecord });
const TurnFinishedEvent = () =>
  event("turnFinished", {
    turnId: TurnId,
    outcome: TurnOutcome,
    usage: Usage,
    badge: Badge,
    durationMs: z.number().nonnegative(),
    /** Why a turn failed, was cancelled or ran out of budget. */
    reason: z.string().optional(),
  });
const TrustRequiredEvent = () =>
  event("trustRequired", {
    projectRoot: z.string(),
    withheld: z.array(z.string()).min(1),
  });
const CheckpointCreatedEvent = () => event("checkpointCreated", { checkpoint: CheckpointInfo });
const RewoundEvent = () =>
  event("rewound", {
    messageId: MessageId,
    restore: RewindRestore,
    restoredPaths: z.array(z.string()),
    unstorable: z.array(z.string()),
  });
const ModeChangedEvent = () => event("modeChanged", { mode: PermissionMode });
const ModelChangedEvent = () => event("modelChanged", { model: z.string().min(1) });
const EffortChangedEvent = () => event("effortChanged", { effort: Effort });
const TitleChangedEvent = () => event("titleChanged", { title: z.string() });

const lastingSchemas = once(
  () =>
    ({
      turnStarted: TurnStartedEvent(),
      toolFinished: ToolFinishedEvent(),
      approvalRequested: ApprovalRequestedEvent(),
      approvalResolved: ApprovalResolvedEvent(),
      questionAsked: QuestionAskedEvent(),
      questionAnswered: QuestionAnsweredEvent(),
      planProposed: PlanProposedEvent(),
      planResolved: PlanResolvedEvent(),
      todosUpdated: TodosUpdatedEvent(),
      notice: NoticeEvent(),
      checkRecorded: CheckRecordedEvent(),
      turnFinished: TurnFinishedEvent(),
      trustRequired: TrustRequiredEvent(),
      checkpointCreated: CheckpointCreatedEvent(),
      rewound: RewoundEvent(),
      modeChanged: ModeChangedEvent(),
      modelChanged: ModelChangedEvent(),
      effortChanged: EffortChangedEvent(),
      titleChanged: TitleChangedEvent(),
    }) as const,
);
/**
 * The schemas of the events that change lasting state, by event type: each is the one
 * declaration of a fact's fields, and the store's log record of the same fact is derived from
 * it (the record kind for `type`; `approvalRequested` leaves its live-only `preview` and
 * `suggestedRules` out; the `trust` record adds the answer). The same values as in
 * {@link EngineEvent}.
 */
export const lastingEvents = lazily(lastingSchemas);

const engineEvent = once(() => {
  const lasting = lastingSchemas();
  return z.discriminatedUnion("type", [
    lasting.turnStarted,
    event("assistantStarted", {
      messageId: MessageId,
      model: z.string(),
      /** The model's context window in tokens (the catalog's), for a host's "context left". */
      contextWindow: z.number().int().positive().optional(),
    }),
    event("textDelta", { messageId: MessageId, text: z.string() }),
    event("thinkingDelta", { messageId: MessageId, text: z.string() }),
    event("assistantFinished", { message: Message, usage: Usage, stopReason: StopReason }),
    event("toolStarted", {
      toolCallId: ToolCallId,
      toolName: z.string(),
      input: z.unknown(),
      title: z.string(),
    }),
    event("toolProgress", { toolCallId: ToolCallId, text: z.string() }),
    lasting.toolFinished,
    lasting.approvalRequested,
    lasting.approvalResolved,
    lasting.questionAsked,
    lasting.questionAnswered,
    lasting.planProposed,
    lasting.planResolved,
    lasting.todosUpdated,
    event("retrying", {
      attempt: z.number().int().positive(),
      maxAttempts: z.number().int().positive(),
      delayMs: z.number().nonnegative(),
      reason: ModelErrorKind,
      message: z.string(),
    }),
    event("compactionStarted", { trigger: z.enum(["auto", "manual"]) }),
    event("compacted", { marker: compactionMarker() }),
    lasting.notice,
    lasting.checkRecorded,
    event("verificationChanged", { badge: Badge }),
    lasting.turnFinished,
    lasting.trustRequired,
    event("jobUpdated", { job: JobInfo }),
    lasting.checkpointCreated,
    lasting.rewound,
    lasting.modeChanged,
    lasting.modelChanged,
    lasting.effortChanged,
    lasting.titleChanged,
    /**
     * The session's running total, after each priced response; `source` names what caused a
     * fast-model call (absent for an agent's own rounds).
     */
    event("costUpdated", { sessionUsage: Usage, source: SpendSource.optional() }),
    /** An engine built-in command's answer (`/cost`, `/status`, ...), as markdown; live only. */
    event("commandOutput", { name: z.string(), markdown: z.string() }),
    /** An MCP server's state changed (live only: the state is the running session's, not the log's). */
    event("mcpServerUpdated", { server: McpServerStatus }),
    // The decision layer's events are live only (architecture.md "Decision seams").
    /** A route use chose the turn's effort or model. */
    event("routeChosen", { route: DecisionRoute }),
    /** The final answer claims something no fresh check backs. */
    event("completionClaimUnchecked", { claim: CompletionClaim }),
    /** A finished turn's tone, judged in the background. */
    event("turnToneJudged", { turnId: TurnId, tone: TurnTone }),
    /** The urgency of an approval or a notice. */
    event("urgencyScored", { urgency: Urgency }),
    /** A task view applied, or the full history came back (its `taskView` record is in the log). */
    event("taskViewApplied", { view: TaskViewInfo }),
    /** A suggestion card for the user; nothing happens unless it is accepted. */
    event("suggested", { suggestion: Suggestion }),
    /** The user accepted or dismissed a suggestion (`resolveSuggestion`). */
    event("suggestionResolved", { suggestionId: z.string(), accepted: z.boolean() }),
    /** One decision of a use at a seam (the decision trace). */
    event("decisionTraced", { trace: DecisionTrace }),
  ]);
});
/**
 * Everything a session reports. Events that change lasting state are recorded in the
 * session log before they are emitted; `textDelta`, `thinkingDelta`, `toolProgress`,
 * `mcpServerUpdated` and `commandOutput` are live only, as are the decision layer's events.
 */
export const EngineEvent = lazily(engineEvent);
export type EngineEvent = z.infer<typeof EngineEvent>;
export type EngineEventType = EngineEvent["type"];
/** The event of one type, e.g. `EngineEventOf<"turnFinished">`. */
export type EngineEventOf<T extends EngineEventType> = Extract<EngineEvent, { type: T }>;

/** The format version of envelopes and every record on disk. */
export const PROTOCOL_VERSION = 2;

const eventEnvelope = once(() =>
  z.object({
    v: z.literal(PROTOCOL_VERSION),
    sessionId: SessionId,
    seq: z.number().int().nonnegative(),
    ts: z.number(),
    agentId: AgentId.optional(),
    turnId: TurnId.optional(),
    event: engineEvent(),
  }),
);
/**
 * One event as hosts receive it. `seq` increases strictly per session; `ts` is milliseconds
 * since the epoch; `agentId` is set for a subagent's events.
 */
export const EventEnvelope = lazily(eventEnvelope);
export type EventEnvelope = z.infer<typeof EventEnvelope>;

/** Parses an event value. Never throws. */
export const parseEngineEvent = (value: unknown): ParseResult<EngineEvent> =>
  parseWith(EngineEvent, value);

/** Parses an envelope value; errors inside the event name paths such as `event.turnId`. Never throws. */
export const parseEventEnvelope = (value: unknown): ParseResult<EventEnvelope> =>
  parseWith(EventEnvelope, value);

/** Parses an envelope from JSON text (one line of stream-json). Never throws. */
export const parseEventEnvelopeJson = (text: string): ParseResult<EventEnvelope> =>
  parseJsonWith(EventEnvelope, text);
