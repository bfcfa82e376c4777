import { z } from "zod";
import { lazily } from "./lazy.js";
import { ImageBlock } from "./content.js";
import {
  AgentId,
  ApprovalId,
  JobId,
  MessageId,
  PlanId,
  QuestionId,
  ToolCallId,
  TurnId,
} from "./ids.js";
import { Effort } from "./model.js";
import { parseJsonWith, parseWith, type ParseResult } from "./parse.js";
import { ApprovalDecision, PermissionMode, QuestionAnswers, RewindRestore } from "./records.js";

const command = <T extends string, S extends z.ZodRawShape>(type: T, shape: S) =>
  z.strictObject({ type: z.literal(type), ...shape });

/**
 * Each command's schema by its `type`, built on first use (`parseEngineCommand` parses a
 * command with its own type's schema only, as the union does; building the whole union at
 * the first command was about 2 ms of `zeng -p`'s start).
 */
const VARIANTS = {
  /**
   * Start a turn with a user message (queued when a turn is running). `turnId` names the
   * turn it starts (a host's own id, so it can wait for that turn's end); default: a new id.
   */
  submit: lazily(() =>
    command("submit", {
      text: z.string(),
      images: z.array(ImageBlock).optional(),
      turnId: TurnId.optional(),
    }),
  ),
  /** A message that joins the running turn at its next round. */
  steer: lazily(() => command("steer", { text: z.string().min(1) })),
  cancel: lazily(() => command("cancel", {})),
  interrupt: lazily(() => command("interrupt", {})),
  resolveApproval: lazily(() =>
    command("resolveApproval", { approvalId: ApprovalId, decision: ApprovalDecision }),
  ),
  answerQuestion: lazily(() =>
    command("answerQuestion", { questionId: QuestionId, answers: QuestionAnswers }),
  ),
  /** Approve or reject a proposed plan; `mode` is the mode to leave plan mode into. */
  resolvePlan: lazily(() =>
    command("resolvePlan", {
      planId: PlanId,
      approved: z.boolean(),
      feedback: z.string().optional(),
      mode: PermissionMode.optional(),
    }),
  ),
  setMode: lazily(() => command("setMode", { mode: PermissionMode })),
  setModel: lazily(() => command("setModel", { model: z.string().min(1) })),
  setEffort: lazily(() => command("setEffort", { effort: Effort })),
  /** Restore code, conversation or both to the state before a user message (idle sessions only). */
  rewind: lazily(() => command("rewind", { messageId: MessageId, restore: RewindRestore })),
  /** `true` records the project in trust.json and reloads settings; `false` only dismisses. */
  trustWorkspace: lazily(() => command("trustWorkspace", { trusted: z.boolean() })),
  killJob: lazily(() => command("killJob", { jobId: JobId })),
  /**
   * Stops one running subagent (foreground or background) as the user decided, named by its
   * agent id or by the id of the Agent call that started it (exactly one of the two): its
   * Agent call's result says the user stopped it and the parent's turn goes on. An agent that
   * is not running gets an `agent.unknown` warning notice.
   */
  stopAgent: lazily(() =>
    command("stopAgent", { agentId: AgentId.optional(), toolCallId: ToolCallId.optional() })
      .refine((c) => c.agentId !== undefined || c.toolCallId !== undefined, {
        message: "stopAgent needs an agentId or a toolCallId",
      })
      .refine((c) => c.agentId === undefined || c.toolCallId === undefined, {
        message: "stopAgent takes an agentId or a toolCallId, not both",
      }),
  ),
  /**
   * Run a slash command by name (without the `/`), e.g. `{ name: "fix-issue", args: "123" }`.
   * Engine built-ins answer without the model (a `commandOutput` event or a state change);
   * prompt commands start a turn (queued like a submit); an unknown name gets a notice.
   * `turnId` names the turn a prompt command starts.
   */
  /** Brings back the full history a task view set aside, until the next task view. */
  includeFullHistory: lazily(() => command("includeFullHistory", {})),
  /** Accepts or dismisses a suggestion card (`suggested`). */
  resolveSuggestion: lazily(() =>
    command("resolveSuggestion", { suggestionId: z.string().min(1), accepted: z.boolean() }),
  ),
  runCommand: lazily(() =>
    command("runCommand", {
      name: z.string().min(1),
      args: z.string().default(""),
      turnId: TurnId.optional(),
    }),
  ),
};

/**
 * What a host sends to a session. Cancel and interrupt both stop the current round (the
 * stream or the tools), answer pending tool calls "cancelled by user" and end the turn as
 * `cancelled`; interrupt keeps queued steering for the next turn, cancel drops it.
 */
export const EngineCommand = lazily(() =>
  z.discriminatedUnion("type", [
    VARIANTS.submit,
    VARIANTS.steer,
    VARIANTS.cancel,
    VARIANTS.interrupt,
    VARIANTS.resolveApproval,
    VARIANTS.answerQuestion,
    VARIANTS.resolvePlan,
    VARIANTS.setMode,
    VARIANTS.setModel,
    VARIANTS.setEffort,
    VARIANTS.rewind,
    VARIANTS.trustWorkspace,
    VARIANTS.killJob,
    VARIANTS.stopAgent,
    VARIANTS.runCommand,
    VARIANTS.includeFullHistory,
    VARIANTS.resolveSuggestion,
  ]),
);
export type EngineCommand = z.infer<typeof EngineCommand>;
export type EngineCommandType = EngineCommand["type"];
/** The `stopAgent` command: exactly one of `agentId` and `toolCallId` (the parse checks it). */
export type StopAgentCommand = Extract<EngineCommand, { type: "stopAgent" }>;

/**
 * Parses a command value from a host: with its type's schema when the type is a known one
 * (the union's own result), else with the union (which names the missing or unknown type).
 * Never throws.
 */
export function parseEngineCommand(value: unknown): ParseResult<EngineCommand> {
  const type =
    typeof value === "object" && value !== null ? (value as { type?: unknown }).type : undefined;
  const schema =
    typeof type === "string" && Object.hasOwn(VARIANTS, type)
      ? (VARIANTS[type as keyof typeof VARIANTS] as z.ZodType<EngineCommand>)
      : EngineCommand;
  return parseWith(schema, value);
}

/** Parses a command from JSON text. Never throws. */
export const parseEngineCommandJson = (text: string): ParseResult<EngineCommand> =>
  parseJsonWith(EngineCommand, text);
