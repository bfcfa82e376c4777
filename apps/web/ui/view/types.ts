// The page's view of one session (`PageView`): what the events of one session add up to.
// Pure data; `reduce.ts` folds events into it and nothing here touches the DOM.
import type {
  Badge,
  CheckpointInfo,
  CheckRecord,
  EngineEventOf,
  JobInfo,
  McpServerStatus,
  Plan,
  Question,
  TodoItem,
  ToolDisplay,
  Usage,
} from "@z-engine/protocol";

export type { StreamItem } from "../../src/server/session-hub.js";

export type Entry =
  | { kind: "user"; key: string; messageId: string; turnId: string; text: string }
  | {
      kind: "assistant";
      key: string;
      messageId: string;
      text: string;
      thinking: string;
      done: boolean;
    }
  | {
      kind: "tool";
      key: string;
      toolCallId: string;
      name: string;
      title: string;
      input: unknown;
      progress: string;
      status: "running" | "ok" | "error" | "denied" | "cancelled";
      display?: ToolDisplay;
      durationMs?: number;
    }
  | { kind: "notice"; key: string; level: string; code: string; message: string }
  | {
      kind: "turnEnd";
      key: string;
      turnId: string;
      outcome: string;
      usage: Usage;
      badge: Badge;
      durationMs: number;
      reason?: string;
      /** What every agent of the turn spent (its subagents too), when that is more than `usage`. */
      allAgents?: Usage;
    }
  | { kind: "divider"; key: string; text: string }
  | { kind: "compaction"; key: string; dropped: number; tokensBefore: number; tokensAfter: number }
  | { kind: "output"; key: string; name: string; markdown: string };

/** An approval waiting, with the subagent that asked (when one did). */
export type PendingApproval = Omit<EngineEventOf<"approvalRequested">, "type"> & {
  agentId?: string;
};

/** A subagent's own transcript, folded from the events that carry its id. */
export interface AgentView {
  readonly entries: Entry[];
}

/** After a rewind: what the page should ask the engine (the badge now) and put back. */
export interface RewindFollowUp {
  /** The cursor of the rewind (a page acts once per cursor). */
  readonly cursor: number;
  /** The rewound message's text, for the composer (a rewind of the conversation only). */
  readonly prompt?: string;
  /** Whether the session's changes are still there to verify. */
  readonly filesChanged: boolean;
}

/**
 * What the page shows of one session, folded from its events (`reduceView`). Not the engine's
 * `SessionView` (a stored session's history query) nor the `SessionView` screen component.
 */
export interface PageView {
  /** The main agent's transcript. */
  entries: Entry[];
  /** Each subagent's transcript, by agent id (live events only). */
  agents: Record<string, AgentView>;
  approvals: PendingApproval[];
  questions: Question[];
  plans: Plan[];
  todos: TodoItem[];
  jobs: JobInfo[];
  checks: CheckRecord[];
  checkpoints: CheckpointInfo[];
  badge?: Badge;
  trust?: { projectRoot: string; withheld: string[] };
  mode?: string;
  model?: string;
  effort?: string;
  title?: string;
  sessionUsage?: Usage;
  runningTurn?: string;
  /** Usage per agent ("main" for the main one), from the `costUpdated` steps and their envelopes. */
  agentUsage: Record<string, Usage>;
  /** Usage per turn id over every agent, from the same steps. */
  turnUsage: Record<string, Usage>;
  /** The last rewind's follow-up, for the page. */
  rewind?: RewindFollowUp;
  /** Compactions started and not yet done. */
  compacting: boolean;
  /** Each MCP server's last state, from the live `mcpServerUpdated` events. */
  mcpStates: Record<string, McpServerStatus["state"]>;
  lastCursor: number;
}

export function emptyView(): PageView {
  return {
    entries: [],
    agents: {},
    approvals: [],
    questions: [],
    plans: [],
    todos: [],
    jobs: [],
    checks: [],
    checkpoints: [],
    agentUsage: {},
    turnUsage: {},
    compacting: false,
    mcpStates: {},
    lastCursor: -1,
  };
}

/** A view being folded: copies of the parts a batch may change, made once per batch. */
export interface Draft {
  readonly view: PageView;
  /** The subagents whose entries were copied in this batch. */
  readonly agentsCopied: Set<string>;
}
