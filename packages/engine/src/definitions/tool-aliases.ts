/** Claude Code's name for the Agent tool, accepted in definitions, rules and transcripts. */
export const AGENT_TOOL_ALIASES: Readonly<Record<string, string>> = { Task: "Agent" };
