import { agentTool, type Tool } from "@z-engine/tools";
import type { AgentCatalog } from "./discover.js";

/** Longer descriptions are cut in the tool's list (Claude Code's generated ones run long). */
const MAX_DESCRIPTION_CHARS = 600;

/**
 * The Agent tool as this session offers it: its description ends with the agent types the
 * session knows and what each is for, so the model can pick a `subagent_type`. Built once
 * per session, so the tool's spec is the same bytes on every request.
 */
export function agentToolFor(catalog: AgentCatalog): Tool {
  const lines = [...catalog.types.values()].map(({ definition: d }) => {
    const text =
      d.description.length > MAX_DESCRIPTION_CHARS
        ? `${d.description.slice(0, MAX_DESCRIPTION_CHARS)}...`
        : d.description;
    return `- ${d.name}: ${text}`;
  });
  const description = `${agentTool.description}\n\nAvailable agent types:\n${lines.join("\n")}`;
  return { ...(agentTool as Tool), description };
}
