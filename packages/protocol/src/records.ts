import { z } from "zod";
import { lazily } from "./lazy.js";
import { CheckpointId, JobId, MessageId, PlanId, QuestionId, TurnId } from "./ids.js";

/** How a turn ended. `interrupted` is a turn found unfinished when its session was reopened. */
export const TurnOutcome = lazily(() =>
  z.enum(["completed", "cancelled", "failed", "budgetExhausted", "interrupted"]),
);
export type TurnOutcome = z.infer<typeof TurnOutcome>;

/** The permission modes: which actions run without asking (the one list apps and settings use). */
export const PERMISSION_MODES = ["ask", "acceptEdits", "plan", "bypass"] as const;

/** The permission mode: which actions run without asking. */
export const PermissionMode = lazily(() => z.enum(PERMISSION_MODES));
export type PermissionMode = z.infer<typeof PermissionMode>;

/**
 * A user's answer to an approval request. `allowSession` adds `rule` to the session's
 * rules; `allowProject` also persists it to the project's settings.local.toml; `deny`
 * sends `feedback` to the model.
 */
export const ApprovalDecision = lazily(() =>
  z.discriminatedUnion("type", [
    // `updatedInput`: allowed with this input instead (the Agent SDK's canUseTool answer); the
    // call is gated again on it (rules, hooks, policy) before it runs.
    z.object({
      type: z.literal("allowOnce"),
      updatedInput: z.record(z.string(), z.unknown()).optional(),
    }),
    z.object({
      type: z.literal("allowSession"),
      rule: z.string().min(1),
      updatedInput: z.record(z.string(), z.unknown()).optional(),
    }),
    z.object({ type: z.literal("allowProject"), rule: z.string().min(1) }),
    z.object({ type: z.literal("deny"), feedback: z.string().optional() }),
  ]),
);
export type ApprovalDecision = z.infer<typeof ApprovalDecision>;

/** One entry of the agent's todo list (TodoWrite's fields). */
export const TodoItem = lazily(() =>
  z.object({
    content: z.string().min(1),
    status: z.enum(["pending", "in_progress", "completed"]),
    activeForm: z.string().optional(),
  }),
);
export type TodoItem = z.infer<typeof TodoItem>;

/** A structured question for the user (AskUserQuestion's fields). */
export const Question = lazily(() =>
  z.object({
    id: QuestionId,
    questions: z
      .array(
        z.object({
          question: z.string().min(1),
          header: z.string().optional(),
          options: z.array(
            z.object({ label: z.string().min(1), description: z.string().optional() }),
          ),
          multiSelect: z.boolean(),
        }),
      )
      .min(1),
  }),
);
export type Question = z.infer<typeof Question>;

/** Answers keyed by question text; several chosen labels are joined with ", ". */
export const QuestionAnswers = lazily(() => z.record(z.string(), z.string()));
export type QuestionAnswers = z.infer<typeof QuestionAnswers>;

/** A plan the agent proposes for review before leaving plan mode (ExitPlanMode). */
export const Plan = lazily(() => z.object({ id: PlanId, plan: z.string() }));
export type Plan = z.infer<typeof Plan>;

/** One checkpoint: a snapshot of the project taken before a user turn's first tool call. */
export const CheckpointInfo = lazily(() =>
  z.object({
    id: CheckpointId,
    turnId: TurnId,
    /** The user message the snapshot precedes; rewinding to it restores this checkpoint. */
    messageId: MessageId,
    createdAt: z.number(),
    /** The shadow repository's commit. */
    commit: z.string(),
    files: z.number().int().nonnegative(),
    /** Project-relative paths the snapshot could not store (too large). */
    unstorable: z.array(z.string()),
  }),
);
export type CheckpointInfo = z.infer<typeof CheckpointInfo>;

/** What to bring back on rewind. */
export const RewindRestore = lazily(() => z.enum(["code", "conversation", "both"]));
export type RewindRestore = z.infer<typeof RewindRestore>;

/** A background job: a shell started with run_in_background, or a background agent. */
export const JobInfo = lazily(() =>
  z.object({
    id: JobId,
    kind: z.enum(["shell", "agent"]),
    description: z.string(),
    status: z.enum(["running", "completed", "failed", "killed"]),
    exitCode: z.number().int().nullable(),
    startedAt: z.number(),
    endedAt: z.number().optional(),
  }),
);
export type JobInfo = z.infer<typeof JobInfo>;

/** How notices are shown. */
export const NoticeLevel = lazily(() => z.enum(["info", "warning", "error"]));
export type NoticeLevel = z.infer<typeof NoticeLevel>;
