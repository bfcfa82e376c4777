import type {
  AgentId,
  ApprovalId,
  CheckpointInfo,
  CheckRecord,
  Effort,
  Message,
  PermissionMode,
  Plan,
  PlanId,
  Question,
  QuestionId,
  TodoItem,
  ToolCallId,
  TurnId,
  TurnOutcome,
  Usage,
} from "@z-engine/protocol";
import type { LogRecord, LogRecordOf } from "./records.js";
import type { PendingToolCall } from "./working-set-fold.js";

/** The record kinds a host shows in the transcript (state changes and bookkeeping are not). */
export type TranscriptRecord = Exclude<
  LogRecord,
  {
    kind:
      | "session"
      | "usage"
      | "rewind"
      | "toolResultsCleared"
      | "mode"
      | "model"
      | "effort"
      | "title"
      | "resumePoint";
  }
>;

/** The last turn: still running (unfinished in the log) or ended with an outcome. */
export type LastTurn =
  | { readonly turnId: TurnId; readonly status: "running" }
  | { readonly turnId: TurnId; readonly status: "ended"; readonly outcome: TurnOutcome };

/** The session state a resume starts from, as the replay folds it (not the engine's live `SessionState`). */
export interface ReplayState {
  readonly sessionId: string | null;
  readonly projectRoot: string | null;
  readonly legacyFile: string | null;
  readonly title: string | null;
  readonly mode: PermissionMode | null;
  readonly model: string | null;
  readonly effort: Effort | null;
  readonly todos: readonly TodoItem[];
  readonly openQuestions: readonly Question[];
  readonly openPlans: readonly Plan[];
  readonly openApprovals: readonly LogRecordOf<"approvalRequested">[];
  readonly runningAgents: readonly LogRecordOf<"agentStarted">[];
  readonly lastTurn: LastTurn | null;
  readonly checks: readonly CheckRecord[];
  readonly checkpoints: readonly CheckpointInfo[];
  /** Timestamps of the first and last record (0 for an empty log). */
  readonly createdAt: number;
  readonly updatedAt: number;
  /** Messages in the transcript and turns started, after rewinds. */
  readonly messageCount: number;
  readonly turnCount: number;
}

/** What the engine must close when it resumes a session (see `closingRecords`). */
export interface ResumeReport {
  /** A turn that started and never ended: to be closed as `interrupted`. */
  readonly unfinishedTurn: TurnId | null;
  /** Tool calls without results: to get "interrupted" error results. */
  readonly pendingToolCalls: readonly PendingToolCall[];
  /** Subagents that never finished: to be marked failed. */
  readonly runningAgents: readonly AgentId[];
  /** Approvals nobody answered: to be resolved as cancelled. */
  readonly openApprovals: readonly { approvalId: ApprovalId; toolCallId: ToolCallId }[];
  /** Open questions and plans: to be dismissed. */
  readonly openQuestions: readonly QuestionId[];
  readonly openPlans: readonly PlanId[];
  /** True when there is nothing to close. */
  readonly clean: boolean;
}

/** A log folded into what a session resumes from. */
export interface Replay {
  /** The display transcript, in order; a rewind removes what followed its target. */
  readonly transcript: readonly TranscriptRecord[];
  /** The model's working set (compactions, cleared results, rewinds and task views applied). */
  readonly workingSet: readonly Message[];
  readonly state: ReplayState;
  /** Everything spent, subagents included; rewinds never lower it. */
  readonly totalUsage: Usage;
  readonly resume: ResumeReport;
  /** Records that could not be applied (a rewind to an unknown message, ...). */
  readonly warnings: readonly string[];
  /**
   * True when `transcript` starts at a resume point (a fast resume, or a live session that
   * compacted) and earlier records were not kept in memory: `Session.transcript()` reads them.
   * State, usage, counts and the working set are whole either way.
   */
  readonly earlierHistory: boolean;
}
