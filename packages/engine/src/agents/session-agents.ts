import { existsSync } from "node:fs";
import type { AgentWorktree } from "@z-engine/host";
import { type AgentId, newAgentId, type PermissionMode, type ToolCallId } from "@z-engine/protocol";
import {
  type AgentPort,
  type AgentSpawnRequest,
  errorOutput,
  type ToolOutput,
} from "@z-engine/tools";
import type { SessionJobs } from "../ports/jobs.js";
import type { Journal } from "../journal/journal.js";
import { linkedController, UserStop } from "../util/abort.js";
import { type AgentLaunch, startBackgroundAgent } from "./background-agent.js";
import { childMode } from "./blueprint.js";
import type { AgentCatalog, AgentType } from "./discover.js";
import { agentResult } from "./result.js";
import type { SubagentEnd, SubagentRunner } from "./subagent.js";
import { type WorktreeChanges, WorktreeAgents } from "./worktrees.js";

/** What the port needs of its session. */
export interface SessionAgentsDeps {
  readonly projectRoot: string;
  readonly journal: Journal;
  readonly jobs: SessionJobs;
  readonly catalog: () => AgentCatalog;
  /** The session's (the main agent's) permission mode, now. */
  readonly sessionMode: () => PermissionMode;
  readonly run: SubagentRunner;
  /** Background agents hang here (the session), not under the turn. */
  readonly sessionSignal: AbortSignal;
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The session's folder (in the engine's data) for its worktree agents' repositories and descriptors. */
  readonly worktreesFolder: string;
  /** The type of an agent stored by an earlier run of the session (resume after a reopen). */
  readonly storedAgentType?: (agentId: string) => Promise<string | null>;
  /** `[agents] max_concurrent` and `max_depth` now (default 10 and 2). */
  readonly limits?: () => AgentLimits;
}

/** How many subagents may run at once in a session, and how deep they may nest. */
export interface AgentLimits {
  readonly maxConcurrent: number;
  readonly maxDepth: number;
}

const DEFAULT_LIMITS: AgentLimits = { maxConcurrent: 10, maxDepth: 2 };

/** A running agent: what bounds its own Agent calls, and how to stop it. */
interface Running {
  readonly depth: number;
  readonly mode: PermissionMode;
  readonly toolCallId: string | undefined;
  readonly stop: () => void;
  /** Settles once its run ended and its finish is recorded. */
  readonly done: Promise<void>;
}

/** What `stop` did: the agent stopped (it had ended its run when this resolved), or not running. */
export type AgentStopOutcome =
  | { readonly stopped: true; readonly agentId: string }
  | { readonly stopped: false; readonly reason: string };

interface Finished {
  readonly type: AgentType;
  readonly worktree?: AgentWorktree;
}

/**
 * The AgentPort of one agent (the main agent, or a subagent that may start others):
 * looks types up in the session's catalog, derives the child's mode, records agentStarted
 * and agentFinished, runs foreground agents under the call's signal and background ones as
 * jobs under the session's, and keeps worktree agents' changes until they are applied or
 * discarded. Never rejects: every failure is an error result for the model.
 */
export class SessionAgents implements AgentPort {
  private readonly finished = new Map<string, Finished>();
  /** Running agents' depth and mode (an agent's own Agent calls are bounded by them), and their stop. */
  private readonly running = new Map<string, Running>();
  /** Agents whose start is under way (not yet in `running`): they hold a slot. */
  private readonly reserved = new Set<string>();
  private readonly worktrees: WorktreeAgents;

  constructor(private readonly deps: SessionAgentsDeps) {
    this.worktrees = new WorktreeAgents(deps.projectRoot, deps.worktreesFolder, deps.env);
  }

  catalog(): readonly { name: string; description: string }[] {
    return [...this.deps.catalog().types.values()].map((t) => ({
      name: t.definition.name,
      description: t.definition.description,
    }));
  }

  async spawn(request: AgentSpawnRequest, signal: AbortSignal): Promise<ToolOutput> {
    const known = request.resume ? await this.resumable(request.resume) : undefined;
    if (request.resume && !known)
      return errorOutput(`No finished agent with id ${request.resume} to resume.`);
    if (request.resume && this.running.has(request.resume))
      return errorOutput(`Agent ${request.resume} is still running.`);
    const type = known?.type ?? this.deps.catalog().types.get(request.agentType);
    if (!type) {
      const names = this.catalog().map((t) => t.name);
      return errorOutput(
        `Unknown agent type "${request.agentType}". Available: ${names.join(", ")}.`,
      );
    }
    const session = this.deps.sessionMode();
    const caller = this.running.get(request.callerAgentId ?? "") ?? { depth: 0, mode: session };
    const refused = this.overLimit(caller.depth + 1);
    if (refused) return errorOutput(refused);
    const agentId = (request.resume ?? newAgentId()) as AgentId;
    // Its slot is taken now: calls of one batch start side by side.
    this.reserved.add(agentId);
    try {
      return await this.launch(request, signal, { agentId, known, type, caller, session });
    } finally {
      this.reserved.delete(agentId);
    }
  }

  private async launch(
    request: AgentSpawnRequest,
    signal: AbortSignal,
    start: {
      agentId: AgentId;
      known: Finished | undefined;
      type: AgentType;
      caller: { depth: number; mode: PermissionMode };
      session: PermissionMode;
    },
  ): Promise<ToolOutput> {
    const { agentId, known, type, caller, session } = start;
    // A worktree agent whose changes were applied or discarded goes on in a new worktree.
    const applied = known?.worktree !== undefined && !existsSync(known.worktree.path);
    let worktree = applied ? undefined : known?.worktree;
    if (!worktree && (request.isolation === "worktree" || applied)) {
      const created = await this.worktrees.create(agentId);
      if (!created.ok) return errorOutput(created.error);
      worktree = created.worktree;
    }
    const run = {
      agentId,
      type,
      definition: type.definition,
      mode: childMode(type.definition, type.source, caller.mode, session),
      root: worktree?.root ?? this.deps.projectRoot,
      ...(worktree ? { worktree: { path: worktree.path, root: worktree.root } } : {}),
      depth: caller.depth + 1,
      prompt: request.prompt,
      description: request.description,
      background: request.background,
      resume: known !== undefined,
      toolCallId: request.toolCallId,
    };
    await this.deps.journal.record("agentStarted", {
      agentId,
      agentType: type.definition.name,
      description: request.description,
      background: request.background,
      ...(request.toolCallId ? { toolCallId: request.toolCallId as ToolCallId } : {}),
    });
    if (request.background) {
      const deps = { ...this.deps, finish: this.finish.bind(this) };
      return startBackgroundAgent(deps, run, request.description, worktree);
    }
    const end = await this.finish(run, signal, worktree);
    return agentResult(agentId, type.definition.name, end, end.changes);
  }

  /** Why a new agent at `depth` may not start now (a result for the model), if it may not. */
  private overLimit(depth: number): string | undefined {
    const { maxConcurrent, maxDepth } = this.deps.limits?.() ?? DEFAULT_LIMITS;
    if (depth > maxDepth)
      return `Not started: subagents may nest ${maxDepth} deep in this session ([agents] max_depth); do this part yourself.`;
    const taken = new Set([...this.running.keys(), ...this.reserved]).size;
    if (taken >= maxConcurrent)
      return `Not started: ${taken} subagents are running, the most this session runs at once ([agents] max_concurrent = ${maxConcurrent}). Wait for one to finish (JobOutput for background ones), then start this one.`;
    return undefined;
  }

  /** A finished agent of this process, else one the session's store still has. */
  private async resumable(agentId: string): Promise<Finished | undefined> {
    const known = this.finished.get(agentId);
    if (known) return known;
    const name = await this.storedType(agentId);
    const type = name ? this.deps.catalog().types.get(name) : undefined;
    if (!type) return undefined;
    // A worktree agent of an earlier process goes on in its worktree.
    const worktree = await this.worktrees.stored(agentId);
    return { type, ...(worktree ? { worktree } : {}) };
  }

  private async storedType(agentId: string): Promise<string | null> {
    return (await this.deps.storedAgentType?.(agentId).catch(() => null)) ?? null;
  }

  /**
   * Brings back the waiting changes of a worktree agent this session ran in an earlier
   * process (its transcript is in the session's store), unless it is running now.
   */
  private async restorePending(agentId: string): Promise<void> {
    if (this.running.has(agentId) || this.finished.has(agentId)) return;
    if ((await this.storedType(agentId)) === null) return;
    await this.worktrees.restore(agentId);
  }

  /**
   * Stops a running agent (foreground or background), found by its id or by the id of the
   * Agent call that started it: its run is aborted as "stopped by the user" (its tool calls
   * answered cancelled), its Agent call gets that result and its parent goes on. Resolves
   * once its run has ended. Never rejects.
   */
  async stop(target: { agentId: string } | { toolCallId: string }): Promise<AgentStopOutcome> {
    const entry =
      "agentId" in target
        ? [...this.running].find(([id]) => id === target.agentId)
        : [...this.running].find(([, r]) => r.toolCallId === target.toolCallId);
    if (!entry) {
      const which =
        "agentId" in target ? `agent ${target.agentId}` : `the agent of call ${target.toolCallId}`;
      return { stopped: false, reason: `${which} is not running` };
    }
    const [agentId, running] = entry;
    running.stop();
    await running.done;
    return { stopped: true, agentId };
  }

  private async finish(
    run: AgentLaunch,
    signal: AbortSignal,
    worktree: AgentWorktree | undefined,
  ): Promise<SubagentEnd & { changes?: WorktreeChanges }> {
    const { toolCallId, ...agent } = run;
    const own = linkedController(signal);
    let ended = () => {};
    const done = new Promise<void>((resolve) => {
      ended = resolve;
    });
    const stop = () => own.abort(new UserStop("agent"));
    this.running.set(run.agentId, { depth: run.depth, mode: run.mode, toolCallId, stop, done });
    try {
      const end = await this.deps.run({ ...agent, signal: own.signal });
      own.release();
      const changes = worktree ? await this.worktrees.commit(run.agentId, worktree) : undefined;
      await this.recordFinish(run.agentId, end);
      this.finished.set(run.agentId, { type: run.type, ...(worktree ? { worktree } : {}) });
      return { ...end, ...(changes ? { changes } : {}) };
    } finally {
      own.release();
      this.running.delete(run.agentId);
      ended();
    }
  }

  private async recordFinish(agentId: AgentId, end: SubagentEnd): Promise<void> {
    const status =
      end.outcome === "completed" || end.outcome === "budgetExhausted"
        ? "completed"
        : end.outcome === "cancelled"
          ? "cancelled"
          : "failed";
    await this.deps.journal
      .record("agentFinished", { agentId, status, ...(end.reason ? { reason: end.reason } : {}) })
      .catch(() => {});
  }

  async pendingChanges(agentId: string): Promise<readonly string[] | null> {
    await this.restorePending(agentId);
    return await this.worktrees.pendingPaths(agentId);
  }

  /** A worktree agent's pending changes and its worktree, for the user's review (queries/worktree-changes.ts). */
  async pendingReview(
    agentId: string,
  ): Promise<{ worktree: AgentWorktree; changes: WorktreeChanges } | undefined> {
    await this.restorePending(agentId);
    return this.worktrees.review(agentId);
  }

  async applyChanges(agentId: string, apply: boolean): Promise<ToolOutput> {
    await this.restorePending(agentId);
    // The output's writtenPaths make the applied files count as the parent's writes.
    return (await this.worktrees.applyOrDiscard(agentId, apply)).output;
  }
}
