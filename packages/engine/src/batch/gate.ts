import { type Action, type Decision, decide, type PermissionRules } from "@z-engine/policy";
import type { ToolResultBlock, ToolUseBlock } from "@z-engine/protocol";
import { parseToolInput, type Tool, toolActions } from "@z-engine/tools";
import type { HookOutcome } from "../hooks/types.js";
import type { AgentRun } from "../run/agent-context.js";
import { AGENT_TOOL_ALIASES } from "../agents/blueprint.js";
import type { SessionCore } from "../session/core.js";
import type { ApprovalRequest } from "./approvals.js";
import { toolCtx } from "./tool-ctx.js";
import { reviewAtGate } from "../decisions/gate-seam.js";
import { runHook } from "../hooks/run-hook.js";

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
      readonly input: unknown;
      readonly actions: readonly Action[];
      readonly hookContext: readonly string[];
    }
  | {
      readonly kind: "ask";
      readonly use: ToolUseBlock;
      readonly tool: Tool;
      readonly input: unknown;
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

/** The session's rules: those added in this session first, then the settings' rules. */
export function effectiveRules(core: SessionCore): PermissionRules {
  const s = core.sessionRules;
  const c = core.config.rules;
  return {
    allow: [...s.allow, ...c.allow],
    ask: [...s.ask, ...c.ask],
    deny: [...s.deny, ...c.deny],
  };
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

/**
 * Gates one call in the spec's order: malformed JSON, unknown tool and invalid input become
 * error results; PreToolUse hooks may block, rewrite the input or force a decision; then the
 * policy decides on the tool's actions. Never throws for bad input; rejects only when the
 * log cannot be written.
 */
export async function gateCall(
  core: SessionCore,
  run: AgentRun,
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
  const own = run.agent.tools;
  const tool =
    own.find((t) => t.name === use.name) ??
    // Claude Code's name for the Agent tool, in its transcripts and habits.
    own.find((t) => t.name === AGENT_TOOL_ALIASES[use.name]) ??
    (run.agent.mcpTools && (run.agent.mcpFilter?.(use.name) ?? true)
      ? core.mcp.find(use.name)
      : undefined);
  if (!tool)
    return answered(
      `Unknown tool "${use.name}". Available tools: ${own.map((t) => t.name).join(", ")}.`,
    );
  let input = use.input;
  const valid = parseToolInput(tool, input);
  if (!valid.ok) return answered(valid.error);
  const hook = await runHook(
    core,
    "PreToolUse",
    { tool_name: use.name, tool_input: input },
    { subject: use.name, signal },
  );
  if (hook?.blocked) return answered(`Blocked by a PreToolUse hook: ${hook.blockReason}`, "denied");
  if (hook?.updatedInput) input = hook.updatedInput;
  const ctx = toolCtx(core, run, use.id, signal);
  const described = await toolActions(tool, input, ctx);
  if (!described.ok) return answered(described.error);
  const policy = decide(
    { toolName: tool.name, actions: described.actions },
    run.agent.mode(),
    effectiveRules(core),
    {
      projectRoot: run.root,
      additionalDirectories: core.additionalDirectories,
      homeDir: core.homeDir,
      autoAllowReadOnlyBash: core.config.settings.permissions.auto_allow_read_only_bash,
      engineDirs: core.engineDirs,
      untrustedRepository: !core.trusted,
      ...(core.sandbox.active
        ? {
            sandbox: {
              autoAllow: core.sandbox.autoAllow,
              writableRoots: core.sandbox.writableRoots,
            },
          }
        : {}),
    },
  );
  const call = { toolName: tool.name, input, actions: described.actions };
  const decision = await reviewAtGate(core, call, hook ? withHook(policy, hook) : policy, signal);
  const hookContext = hook?.additionalContext ?? [];
  if (decision.type === "deny") return answered(`Permission denied: ${decision.reason}`, "denied");
  if (decision.type === "allow")
    return { kind: "ready", use, tool, input, actions: described.actions, hookContext };
  const preview = await tool.preview(input, ctx);
  return {
    kind: "ask",
    use,
    tool,
    input,
    actions: described.actions,
    hookContext,
    request: {
      toolCallId: use.id,
      toolName: tool.name,
      title: tool.title(input, ctx),
      reason: decision.reason,
      ...(preview ? { preview } : {}),
      suggestedRules: decision.suggestedRules,
    },
  };
}
