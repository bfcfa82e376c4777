import type { AgentDefinition } from "@z-engine/prompts";
import type { AgentId, PermissionMode, Usage } from "@z-engine/protocol";
import type { AgentType } from "./discover.js";

/** How a subagent's run ended. */
export interface SubagentEnd {
  readonly outcome: "completed" | "failed" | "cancelled" | "budgetExhausted";
  readonly reason?: string;
  /** The agent's last assistant text: its report. */
  readonly finalText: string;
  readonly usage: Usage;
  /** Real absolute paths its tools wrote. */
  readonly writtenPaths: readonly string[];
}

/** One subagent run, as the engine's agent run takes it. */
export interface SubagentRun {
  readonly agentId: AgentId;
  readonly type: AgentType;
  readonly definition: AgentDefinition;
  readonly mode: PermissionMode;
  /** Where it works: the project, or its worktree. */
  readonly root: string;
  /**
   * For a worktree agent: its worktree's top folder and its root in it. Its environment
   * section, shell, sandbox, background jobs and checks are then rooted there, not in the
   * project (issue 38, item 11).
   */
  readonly worktree?: { readonly path: string; readonly root: string };
  readonly depth: number;
  readonly prompt: string;
  /** The Agent call's label, and whether it runs in the background. */
  readonly description: string;
  readonly background: boolean;
  /** Continue its stored transcript rather than start a new one. */
  readonly resume: boolean;
  readonly signal: AbortSignal;
}

/** Runs a subagent to its end: the engine's agent run with a subagent's parts. Never rejects. */
export type SubagentRunner = (run: SubagentRun) => Promise<SubagentEnd>;
