import { type Action, type Decision, decide, type PermissionRules } from "@z-engine/policy";
import type { ToolResultBlock, ToolUseBlock } from "@z-engine/protocol";
import { parsedToolActions, parseToolInput, type Tool } from "@z-engine/tools";
import type { HookOutcome } from "../hooks/types.js";
import type { AgentRun } from "../core/agent-context.js";
import { AGENT_TOOL_ALIASES } from "../definitions/tool-aliases.js";
import type { SessionCore } from "../core/session-core.js";
import type { ApprovalRequest } from "../core/approvals.js";
import { type ToolCtxCore, type ToolCtxRun, toolCtx } from "./tool-ctx.js";
import { reviewAtGate } from "../decisions/gate-seam.js";
import type { DecisionHost } from "../decisions/session-hub.js";
import { agentHookDeps, type HookDeps, runHook } from "../hooks/run-hook.js";
import { decideWithSandbox } from "../core/unconfined.js";

/**
 * What gating a call takes of its session: the tool context's parts, the MCP tools to find
 * calls among, the policy's facts (rules, folders, trust, sandbox), the hooks and the
 * decision layer.
 */
export type GateCore = ToolCtxCore &
  HookDeps &
  DecisionHost &
  Pick<SessionCore, "mcp" | "engineDirs" | "trusted" | "sandbox">;

/** What gating a call takes of its agent's run: its tools, mode, folder and cancellation. */
export type GateRun = ToolCtxRun & Pick<AgentRun, "signal">;

/** A call after validation, hooks and the permission decision. */
export type GatedCall =
  | {
      readonly kind: "answered";
      readonly use: ToolUseBlock;
      readonly result: ToolResultBlock;
      readonly status: "error" | "denied" | "cancelled";
    }
  | {
      readonly kind: "ready";
      readonly use: ToolUseBlock;
      readonly tool: Tool;
      /** The input as the model (or a PreToolUse hook) gave it: events and hooks show it. */
      readonly input: unknown;
      /** The input as the gate parsed it, once: every function of the tool takes this value. */
      readonly parsed: unknown;
      readonly actions: readonly Action[];
      readonly hookContext: readonly string[];
    }
  | {
      readonly kind: "ask";
      readonly use: ToolUseBlock;
      readonly tool: Tool;
      readonly input: unknown;
      readonly parsed: unknown;
      readonly actions: readonly Action[];
      readonly hookContext: readonly string[];
      readonly request: ApprovalRequest;
    };

/** An error result for the model. */
export function errorResult(use: ToolUseBlock, text: string): ToolResultBlock {
  return {
    type: "toolResult",
    toolUseId: use.id,
    content: [{ type: "text", text }],
    isError: true,
  };
}

const joined = new WeakMap<
  PermissionRules,
  { readonly config: PermissionRules; readonly rules: PermissionRules }
>();

/**
 * The session's rules: those added in this session first, then the settings' rules. Both are
 * replaced whole when they change, so the joined lists are kept while both stay the same
 * objects: the policy then reuses its index of them instead of building one per call.
 */
export function effectiveRules(
  core: Pick<SessionCore, "sessionRules" | "config">,
): PermissionRules {
  const s = core.sessionRules;
  const c = core.config.rules;
  const hit = joined.get(s);
  if (hit?.config === c) return hit.rules;
  const rules = {
    allow: [...s.allow, ...c.allow],
    ask: [...s.ask, ...c.ask],
    deny: [...s.deny, ...c.deny],
  };
  joined.set(s, { config: c, rules });
  return rules;
}

/**
 * Combines the policy's decision with a PreToolUse hook's (design.md §3): a hook's deny and
 * ask always hold; its allow skips an ask but never a deny rule.
 */
export function withHook(decision: Decision, hook: HookOutcome): Decision {
  const reason = hook.permissionReason || "a PreToolUse hook decided";
  if (decision.type === "deny") return decision;
  switch (hook.permissionDecision) {
    case "deny":
      return { type: "deny", reason };
    case "ask":
      return decision.type === "ask" ? decision : { type: "ask", reason, suggestedRules: [] };
    case "allow":
      return { type: "allow", reason };
    default:
      return decision;
  }
}

/** The tool a call names: the agent's own (or its alias), else an MCP tool it may use. */
function findTool(core: GateCore, run: GateRun, name: string) {
  const own = run.agent.tools;
  return (
    own.find((t) => t.name === name) ??
    // Claude Code's name for the Agent tool, in its transcripts and habits.
    own.find((t) => t.name === AGENT_TOOL_ALIASES[name]) ??
    (run.agent.mcpTools && (run.agent.mcpFilter?.(name) ?? true) ? core.mcp.find(name) : undefined)
  );
}

/** The policy's decision on a call's actions, with the sandbox's auto-allow. */
function policyDecision(
  core: GateCore,
  run: GateRun,
  toolName: string,
  actions: Parameters<typeof decide>[0]["actions"],
) {
  // A worktree agent's sandbox auto-allows writes in its worktree only.
  const sandbox = run.confinement?.sandbox ?? core.sandbox;
  return decideWithSandbox(sandbox, run.agent.mode(), actions, (mode) =>
    decide({ toolName, actions }, mode, effectiveRules(core), {
      projectRoot: run.root,
      additionalDirectories: core.additionalDirectories,
      homeDir: core.homeDir,
      autoAllowReadOnlyBash: core.config.settings.permissions.auto_allow_read_only_bash,
      engineDirs: core.engineDirs,
      untrustedRepository: !core.trusted,
      ...(sandbox.active
        ? { sandbox: { autoAllow: sandbox.autoAllow, writableRoots: sandbox.writableRoots } }
        : {}),
    }),
  );
}

/**
 * Gates one call in the spec's order: malformed JSON, unknown tool and invalid input become
 * error results; PreToolUse hooks may block, rewrite the input or force a decision; then the
 * policy decides on the tool's actions. The input is parsed once (again only when a hook
 * rewrote it) and the parsed value is carried in the gated call to the run. Never throws for
 * bad input; rejects only when the log cannot be written.
 */
export async function gateCall(
  core: GateCore,
  run: GateRun,
  use: ToolUseBlock,
  invalidJson: string | undefined,
): Promise<GatedCall> {
  const signal = run.signal;
  const answered = (text: string, status: "error" | "denied" = "error"): GatedCall => ({
    kind: "answered",
    use,
    result: errorResult(use, text),
    status,
  });
  if (invalidJson !== undefined)
    return answered(
      `The arguments of ${use.name} were not valid JSON (${invalidJson}); send the call again with a JSON object.`,
    );
  const tool = findTool(core, run, use.name);
  if (!tool)
    return answered(
      `Unknown tool "${use.name}". Available tools: ${run.agent.tools.map((t) => t.name).join(", ")}.`,
    );
  let input = use.input;
  let valid = parseToolInput(tool, input);
  if (!valid.ok) return answered(valid.error);
  const hook = await runHook(
    agentHookDeps(core, run.agent),
    "PreToolUse",
    { tool_name: use.name, tool_input: input, tool_use_id: use.id },
    { subject: use.name, signal },
  );
  if (hook?.blocked) return answered(`Blocked by a PreToolUse hook: ${hook.blockReason}`, "denied");
  if (hook?.updatedInput) {
    // A rewritten input is a new raw input: it is parsed (once) in its turn.
    input = hook.updatedInput;
    valid = parseToolInput(tool, input);
    if (!valid.ok) return answered(valid.error);
  }
  const parsed = valid.input;
  const ctx = toolCtx(core, run, use.id, signal);
  const described = await parsedToolActions(tool, parsed, ctx);
  if (!described.ok) return answered(described.error);
  const policy = policyDecision(core, run, tool.name, described.actions);
  const call = { toolName: tool.name, input, actions: described.actions };
  const decision = await reviewAtGate(core, call, hook ? withHook(policy, hook) : policy, signal);
  const hookContext = hook?.additionalContext ?? [];
  if (decision.type === "deny") return answered(`Permission denied: ${decision.reason}`, "denied");
  if (decision.type === "allow")
    return { kind: "ready", use, tool, input, parsed, actions: described.actions, hookContext };
  const preview = await tool.preview(parsed, ctx);
  return {
    kind: "ask",
    use,
    tool,
    input,
    parsed,
    actions: described.actions,
    hookContext,
    request: {
      toolCallId: use.id,
      toolName: tool.name,
      title: tool.title(parsed, ctx),
      reason: decision.reason,
      ...(preview ? { preview } : {}),
      suggestedRules: decision.suggestedRules,
    },
  };
}
