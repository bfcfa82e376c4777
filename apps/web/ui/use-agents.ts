// The session's agents report, read again as agents start and end, and Stop for one of them.
import type { SessionAgentsReport } from "@z-engine/engine";
import { useCallback, useEffect } from "react";
import { api } from "./api.js";
import { useData } from "./use-data.js";
import type { PageView } from "./view/types.js";

/** Which running subagent to stop: by its id (the Agents panel) or its Agent call's (a row). */
export type AgentStopTarget = { agentId: string } | { toolCallId: string };

export interface Agents {
  readonly report: SessionAgentsReport | undefined;
  /** Stops one subagent; a refusal is said through `onError`; the report is read again after. */
  readonly stop: (target: AgentStopTarget) => void;
}

/** The Agent calls running now (an Agent call's start comes before its agent's record). */
function runningAgentCalls(view: PageView): string {
  const ids: string[] = [];
  for (const e of view.entries)
    if (e.kind === "tool" && e.status === "running" && (e.name === "Agent" || e.name === "Task"))
      ids.push(e.toolCallId);
  return ids.join(",");
}

/**
 * The agents report of session `id`: read when a turn ends, a subagent shows events, or an
 * Agent call starts or ends; while a running call's agent is not listed yet, read again
 * shortly (its agent is recorded just after the call starts).
 */
export function useAgents(
  id: string,
  view: PageView,
  turnEnds: number,
  onError: (message: string | undefined) => void,
): Agents {
  const calls = runningAgentCalls(view);
  const agents = useData(
    () => api.agents(id),
    [id, turnEnds, Object.keys(view.agents).length, calls],
  );
  const { reload, value, loading } = agents;
  useEffect(() => {
    if (!calls || loading) return;
    const listed = new Set(value?.agents.map((a) => a.toolCallId));
    if (calls.split(",").every((c) => listed.has(c))) return;
    const timer = setTimeout(reload, 200);
    return () => clearTimeout(timer);
  }, [calls, value, loading, reload]);
  const stop = useCallback(
    (target: AgentStopTarget) => {
      api.stopAgent(id, target).then(
        (outcome) => {
          onError(outcome.stopped ? undefined : `Not stopped: ${outcome.reason}`);
          reload();
        },
        (e: Error) => onError(e.message),
      );
    },
    [id, onError, reload],
  );
  return { report: value, stop };
}
