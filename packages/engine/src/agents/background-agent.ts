import type { AgentWorktree } from "@z-engine/host";
import type { ToolOutput } from "@z-engine/tools";
import type { AgentJobHandle, SessionJobs } from "../ports/jobs.js";
import { agentResult } from "./result.js";
import type { SubagentEnd, SubagentRun } from "./subagent.js";
import type { WorktreeChanges } from "./worktrees.js";

/** An agent about to run: its run without the signal, and the Agent call that starts it. */
export type AgentLaunch = Omit<SubagentRun, "signal"> & {
  readonly toolCallId?: string | undefined;
};

/** Runs an agent to its end under `signal`, recording its finish (SessionAgents' `finish`). */
export type FinishAgent = (
  run: AgentLaunch,
  signal: AbortSignal,
  worktree: AgentWorktree | undefined,
) => Promise<SubagentEnd & { changes?: WorktreeChanges }>;

/**
 * Starts an agent as a background job under the session's signal (not the turn's): the job's
 * output is its report once it ends, JobKill aborts it; a run that ends cancelled (killed,
 * stopped by the user, the session closing) is a killed job. Returns the Agent call's result.
 */
export function startBackgroundAgent(
  deps: { readonly jobs: SessionJobs; readonly sessionSignal: AbortSignal; finish: FinishAgent },
  run: AgentLaunch,
  description: string,
  worktree: AgentWorktree | undefined,
): ToolOutput {
  const controller = new AbortController();
  const stop = () => controller.abort(deps.sessionSignal.reason);
  deps.sessionSignal.addEventListener("abort", stop, { once: true });
  let report: string | null = null;
  const done = deps.finish(run, controller.signal, worktree).then((end) => {
    deps.sessionSignal.removeEventListener("abort", stop);
    const result = agentResult(run.agentId, run.definition.name, end, end.changes);
    report = result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
    const status =
      controller.signal.aborted || end.outcome === "cancelled"
        ? "killed"
        : end.outcome === "failed"
          ? "failed"
          : "completed";
    return { status } as const;
  });
  const handle: AgentJobHandle = {
    readNewOutput: () => {
      const text = report ?? "";
      report = report === null ? null : "";
      return text;
    },
    kill: async () => {
      controller.abort(new Error("killed by JobKill"));
      await done;
    },
    done,
  };
  const job = deps.jobs.startAgent(`${run.definition.name}: ${description}`, handle);
  return {
    content: [
      {
        type: "text",
        text: `Started ${run.definition.name} agent ${run.agentId} in the background as job ${job.id}. A reminder will say when it finishes; read its report with JobOutput (job_id ${job.id}).`,
      },
    ],
    isError: false,
    writtenPaths: [],
    artifacts: [],
  };
}
