import { z } from "zod";
import { defineTool, lazySchema } from "../tool.js";
import { builtinInputJsonSchema } from "./input-json-schemas.js";
import { errorOutput } from "../tool-output.js";
import { describe } from "./describe.js";

/** The agent type used when a call names none. */
export const DEFAULT_AGENT_TYPE = "general";

const AgentInput = lazySchema(() =>
  z.strictObject({
    description: z.string().describe("A short (3-5 word) label for the task"),
    prompt: z.string().min(1).describe("The complete task for the agent"),
    subagent_type: z
      .string()
      .min(1)
      .optional()
      .describe(`The agent type to start (default ${DEFAULT_AGENT_TYPE})`),
    run_in_background: z
      .boolean()
      .optional()
      .describe("Return a job id at once; a reminder says when the agent finishes"),
    resume: z
      .string()
      .min(1)
      .optional()
      .describe("An earlier agent's id: continue it, with its transcript, with this prompt"),
    isolation: z
      .enum(["worktree"])
      .optional()
      .describe("worktree: the agent works in its own git worktree; apply with ApplyAgentChanges"),
  }),
);

/** The type a call asks for. */
function agentType(input: z.output<ReturnType<typeof AgentInput>>): string {
  return input.subagent_type ?? DEFAULT_AGENT_TYPE;
}

/**
 * Agent: starts a subagent through the AgentPort (foreground: its final report, usage and
 * changed files as the result; background: a job id). Its action is `agent` with the type,
 * so `Agent(type)` and `Task(type)` rules match it. Several calls in one response run
 * together.
 */
export const agentTool = defineTool({
  name: "Agent",
  description: describe(
    "Agent",
    "Starts a subagent that works on a task on its own and returns one final report.",
  ),
  inputSchema: AgentInput,
  inputJsonSchema: builtinInputJsonSchema("Agent"),
  requires: ["agents"],
  isConcurrencySafe: () => true,
  action: async (input) => [{ kind: "agent", agentType: agentType(input) }],
  title: (input) => `Agent ${agentType(input)}: ${input.description}`,
  call: async (input, ctx) => {
    const port = ctx.ports.agents;
    if (!port) return errorOutput("Subagents are not available here.");
    return port.spawn(
      {
        agentType: agentType(input),
        description: input.description,
        prompt: input.prompt,
        background: input.run_in_background ?? false,
        toolCallId: ctx.callId,
        callerAgentId: ctx.agentId,
        ...(input.resume ? { resume: input.resume } : {}),
        ...(input.isolation ? { isolation: input.isolation } : {}),
      },
      ctx.signal,
    );
  },
});

const ApplyInput = lazySchema(() =>
  z.strictObject({
    agent_id: z.string().min(1).describe("The worktree agent's id"),
    discard: z.boolean().optional().describe("Drop the changes instead of applying them"),
  }),
);

/**
 * ApplyAgentChanges: merges a worktree agent's committed changes into the project (or
 * discards them). Its action is a write of every path the changes touch, so the gate and
 * the mode decide as for the parent's own edits; discarding writes nothing.
 */
export const applyAgentChangesTool = defineTool({
  name: "ApplyAgentChanges",
  description: describe(
    "ApplyAgentChanges",
    "Applies the changes a subagent made in its isolated worktree to the project, by agent_id.",
  ),
  inputSchema: ApplyInput,
  inputJsonSchema: builtinInputJsonSchema("ApplyAgentChanges"),
  requires: ["agents"],
  action: async (input, ctx) => {
    if (input.discard) return [{ kind: "none" }];
    const paths = (await ctx.ports.agents?.pendingChanges(input.agent_id)) ?? null;
    return paths === null || paths.length === 0
      ? [{ kind: "none" }]
      : [{ kind: "write", paths: [...paths] }];
  },
  title: (input) => `${input.discard ? "Discard" : "Apply"} the changes of agent ${input.agent_id}`,
  call: async (input, ctx) => {
    const port = ctx.ports.agents;
    if (!port) return errorOutput("Subagents are not available here.");
    return port.applyChanges(input.agent_id, !input.discard, ctx.signal);
  },
});
