import { addUsage, emptyUsage, type JobId, type JobInfo, type Usage } from "@z-engine/protocol";
import { type LogRecord, readLog } from "@z-engine/store";
import type { SessionHandle } from "../session/handle.js";
import { historyEvents, type SessionHistory } from "../history/session-history.js";
import type { AgentStopOutcome } from "../agents/session-agents.js";
import { type AgentStopTarget, stopSessionAgent } from "../agents/stop-agent.js";
import { SessionJobs } from "../ports/jobs.js";
import { type QueryTarget, targetOf } from "./registry.js";

/** One subagent of a session, as the Agents screen lists it. */
export interface AgentSummary {
  readonly agentId: string;
  readonly agentType: string;
  readonly description: string;
  readonly background: boolean;
  /** The Agent call that started it, when one did (links the call's row to the agent). */
  readonly toolCallId?: string;
  readonly status: "running" | "completed" | "failed" | "cancelled";
  readonly reason?: string;
  /** What its responses cost (priced like the session's). */
  readonly usage: Usage;
  readonly startedAt: number;
  readonly endedAt?: number;
}

/** Who spent what: the main agent and each subagent, from the session's usage records. */
export interface SessionAgentsReport {
  readonly agents: readonly AgentSummary[];
  readonly mainUsage: Usage;
}

/** The session's records: its log file when it has one, else what the store keeps in memory. */
async function recordsOf(target: QueryTarget): Promise<readonly LogRecord[]> {
  const path = target.session.logPath;
  if (path) return (await readLog(path)).records;
  return target.session.log.transcript();
}

/**
 * Every subagent the session started (also in earlier runs of it), oldest first, with its
 * status and spend, and the main agent's own spend. Rejects only when the log cannot be read.
 */
export async function sessionAgentList(handle: SessionHandle): Promise<SessionAgentsReport> {
  const target = targetOf(handle);
  const agents = new Map<string, AgentSummary>();
  let mainUsage = emptyUsage();
  for (const r of await recordsOf(target)) {
    if (r.kind === "agentStarted") {
      agents.set(r.agentId, {
        agentId: r.agentId,
        agentType: r.agentType,
        description: r.description,
        background: r.background,
        ...(r.toolCallId ? { toolCallId: r.toolCallId } : {}),
        status: "running",
        usage: agents.get(r.agentId)?.usage ?? emptyUsage(),
        startedAt: r.ts,
      });
    } else if (r.kind === "agentFinished") {
      const known = agents.get(r.agentId);
      if (known)
        agents.set(r.agentId, {
          ...known,
          status: r.status,
          endedAt: r.ts,
          ...(r.reason ? { reason: r.reason } : {}),
        });
    } else if (r.kind === "usage") {
      const known = r.agentId ? agents.get(r.agentId) : undefined;
      if (known) agents.set(known.agentId, { ...known, usage: addUsage(known.usage, r.usage) });
      else if (!r.agentId) mainUsage = addUsage(mainUsage, r.usage);
    }
  }
  return { agents: [...agents.values()], mainUsage };
}

/**
 * A subagent's transcript told as the events a host saw (each envelope names the agent), from
 * its own `agents/<id>.jsonl`. Rejects with the store's `notFound` for an agent without one.
 */
export async function agentHistory(
  handle: SessionHandle,
  agentId: string,
): Promise<SessionHistory> {
  const { session } = targetOf(handle);
  const transcript = await session.log.readAgent(agentId);
  const events = historyEvents(session.id, transcript.records).map((e) => ({
    ...e,
    agentId: agentId as NonNullable<(typeof e)["agentId"]>,
  }));
  return { events, skipped: 0 };
}

/** A background job's output so far, without taking it from the model's JobOutput. */
export interface JobOutputView {
  readonly job: JobInfo;
  readonly output: string;
}

/**
 * What a background job (a shell or an agent) printed so far, at most its last 1 MB; the
 * model's JobOutput still gets everything new. Undefined for an unknown job id.
 */
export function jobOutput(handle: SessionHandle, jobId: string): JobOutputView | undefined {
  const jobs = targetOf(handle).session.ports.jobs;
  return jobs instanceof SessionJobs ? jobs.peekOutput(jobId as JobId) : undefined;
}

/** What `stopAgent` did: the agent that stopped, or why nothing was stopped (in words). */
export type StopAgentOutcome = AgentStopOutcome;

/**
 * Stops one running subagent of the session, foreground or background, named by its agent
 * id or by the id of the Agent call that started it, as the user decided: its run is aborted
 * with the reason "stopped by the user" (its tool calls answered cancelled), the Agent call's
 * result says so, and the parent's turn goes on (a background agent's job ends killed).
 * Resolves once its run has ended and its finish is recorded; an agent that is not running
 * is `{ stopped: false, reason }`. Never rejects (but throws `QueryError` for a foreign handle).
 */
export async function stopAgent(
  handle: SessionHandle,
  target: AgentStopTarget,
): Promise<StopAgentOutcome> {
  return stopSessionAgent(targetOf(handle).session.ports, target);
}
