import type { AgentId } from "@z-engine/protocol";
import { errorOutput, textOutput, type ToolOutput } from "@z-engine/tools";
import { formatCost, formatTokens } from "../format/describe.js";
import type { SubagentEnd } from "./subagent.js";
import type { WorktreeChanges } from "./worktrees.js";

function changesText(changes: WorktreeChanges): string {
  if (changes.problem)
    return `Its worktree's changes were not committed, so there is nothing to apply: ${changes.problem}`;
  if (changes.files.length === 0) return "It changed no files in its worktree.";
  const lines = changes.files.map((f) => {
    const counts = f.added === null ? "binary" : `+${f.added} -${f.removed ?? 0}`;
    return `- ${f.path} (${f.status}, ${counts})`;
  });
  return `Its changes are committed in its worktree (not yet in the project):\n${lines.join("\n")}\nApply them with ApplyAgentChanges (agent_id ${changes.agentId}), or discard them.`;
}

/**
 * The Agent tool's result for a finished agent: its report, then a footer with its id (for
 * `resume`), outcome, usage, cost and the files it changed (for a worktree agent, the
 * committed summary and how to apply it). An agent that failed or was cancelled is an error
 * result that still carries whatever it reported.
 */
export function agentResult(
  agentId: AgentId,
  type: string,
  end: SubagentEnd,
  changes?: WorktreeChanges,
): ToolOutput {
  const report =
    end.finalText.trim() ||
    (end.outcome === "cancelled"
      ? `(the agent was ${end.reason ?? "cancelled"} before its final message)`
      : "(the agent gave no final message)");
  const footer = [
    `agent ${agentId} (${type}) ${end.outcome}${end.reason ? `: ${end.reason}` : ""}`,
    `usage: ${formatTokens(end.usage)}, ${formatCost(end.usage.costUsd)}`,
  ];
  if (changes) footer.push(changesText(changes));
  else if (end.writtenPaths.length > 0)
    footer.push(`files changed:\n${end.writtenPaths.map((p) => `- ${p}`).join("\n")}`);
  const text = `${report}\n\n<agent-result>\n${footer.join("\n")}\n</agent-result>`;
  const failed = end.outcome === "failed" || end.outcome === "cancelled";
  // A foreground agent's writes count as the parent's (files changed this turn, the tracker).
  const extras = { writtenPaths: end.writtenPaths };
  return failed ? errorOutput(text, extras) : textOutput(text, extras);
}
