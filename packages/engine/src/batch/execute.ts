import { compileRules } from "@z-engine/policy";
import { scoreAttention } from "../decisions/stop-seam.js";
import { persistProjectRule } from "@z-engine/config";
import type { AgentId, ToolResultBlock, ToolUseBlock, TurnId } from "@z-engine/protocol";
import type { AgentRun } from "../core/agent-context.js";
import type { SessionCore } from "../core/session-core.js";
import type { ApprovalAnswer } from "../core/approvals.js";
import { errorResult, type GateCore, type GatedCall, type GateRun, gateCall } from "./gate.js";
import { regateWithInput } from "./updated-input.js";
import {
  type CallCore,
  type CallRun,
  CANCELLED_RESULT,
  type BatchHooks,
  type Ready,
  runCall,
} from "./run-call.js";

/** What an "always allow" answer takes of its session: where the rule goes and who hears of it. */
type RuleCore = Pick<SessionCore, "projectRoot" | "state" | "journal" | "trusted">;

/** What gating a batch takes of its session: the gate's parts, and the approvals to ask through. */
export type GateAllCore = GateCore & RuleCore & Pick<SessionCore, "approvals">;

export { type BatchHooks, CANCELLED_RESULT } from "./run-call.js";

/** What a batch takes of its session. */
export type BatchCore = GateAllCore & CallCore;

/** What a batch takes of its agent's run. */
export type BatchRun = GateRun & CallRun;

async function addRule(
  core: RuleCore,
  rule: string,
  persist: boolean,
  turnId: TurnId,
): Promise<void> {
  const compiled = compileRules([rule], {
    source: persist ? "settings.local.toml" : "session",
    root: core.projectRoot,
  });
  core.state.allowForSession(compiled.rules);
  for (const e of compiled.errors)
    await core.journal.notice("warning", "rule.invalid", `"${e.text}" was not added: ${e.error}`, {
      turnId,
    });
  if (!persist) return;
  try {
    await persistProjectRule(core.projectRoot, "allow", rule);
    if (!core.trusted) {
      await core.journal.notice(
        "info",
        "rule.persistedUntrusted",
        `"${rule}" is allowed in this session and saved to .z-engine/settings.local.toml; the saved rule applies once this folder is trusted.`,
        { turnId },
      );
    }
  } catch (error) {
    await core.journal.notice(
      "warning",
      "rule.persistFailed",
      `"${rule}" is allowed in this session but could not be saved: ${(error as Error).message}`,
      { turnId },
    );
  }
}

/** Resolves the asks: each answer becomes a ready call or a denied result. */
async function settleAsks(
  core: GateAllCore,
  calls: GatedCall[],
  turnId: TurnId,
  run: GateRun & { readonly agentId?: AgentId },
): Promise<GatedCall[]> {
  const { signal, agentId } = run;
  const asks = calls.filter((c): c is Extract<GatedCall, { kind: "ask" }> => c.kind === "ask");
  if (asks.length === 0) return calls;
  const answering = core.approvals.requestAll(
    asks.map((a) => a.request),
    turnId,
    signal,
    agentId,
  );
  // The waits are registered as requestAll starts: score the ones of this batch meanwhile.
  scoreAttention(
    core,
    core.approvals.pending().filter(([, r]) => asks.some((a) => a.request === r)),
    turnId,
  );
  const answers = await answering;
  const byId = new Map<string, ApprovalAnswer>(
    asks.map((a, i) => [a.use.id, answers[i] as ApprovalAnswer]),
  );
  const settled: GatedCall[] = [];
  for (const call of calls) {
    const answer = call.kind === "ask" ? byId.get(call.use.id) : undefined;
    if (call.kind !== "ask" || !answer) {
      settled.push(call);
      continue;
    }
    const d = answer.decision;
    if (d.type === "deny") {
      const text =
        answer.by === "headless"
          ? `Permission denied: ${answer.reason}. ${call.request.reason}`
          : answer.by === "cancelled"
            ? CANCELLED_RESULT
            : `The user denied this call.${d.feedback ? ` Their feedback: ${d.feedback}` : ""}`;
      settled.push({
        kind: "answered",
        use: call.use,
        result: errorResult(call.use, text),
        status: answer.by === "cancelled" ? "cancelled" : "denied",
      });
      continue;
    }
    if (d.type === "allowSession" || d.type === "allowProject")
      await addRule(core, d.rule, d.type === "allowProject", turnId);
    if (d.type !== "allowProject" && d.updatedInput) {
      settled.push(await regateWithInput(core, run, call, d.updatedInput));
      continue;
    }
    settled.push({
      kind: "ready",
      use: call.use,
      tool: call.tool,
      input: call.input,
      parsed: call.parsed,
      actions: call.actions,
      hookContext: call.hookContext,
    });
  }
  return settled;
}

function cancelledCall(use: ToolUseBlock): Extract<GatedCall, { kind: "answered" }> {
  return { kind: "answered", use, result: errorResult(use, CANCELLED_RESULT), status: "cancelled" };
}

async function finishAnswered(
  transcript: AgentRun["transcript"],
  call: Extract<GatedCall, { kind: "answered" }>,
  turnId: TurnId,
): Promise<ToolResultBlock> {
  const fields = {
    toolCallId: call.use.id,
    toolName: call.use.name,
    status: call.status,
    durationMs: 0,
    writtenPaths: [],
  };
  await transcript.record("toolFinished", fields, { type: "toolFinished", ...fields }, { turnId });
  return call.result;
}

/**
 * Gates calls as a batch does: each in order through `gateCall` (validation, PreToolUse
 * hooks, the policy with the sandbox's auto-allow), then all asks requested together, and an
 * "always allow" answer adds its rule (and saves it for allowProject). Each call comes back
 * ready or answered. The stop boundary's automatic checks use it with a Verify call, so they
 * pass the very same gate. Rejects only when the log cannot be written.
 */
export async function gateAll(
  core: GateAllCore,
  run: GateRun,
  uses: readonly ToolUseBlock[],
  turnId: TurnId,
  invalidInputs: ReadonlyMap<string, string> = new Map(),
): Promise<GatedCall[]> {
  const gated: GatedCall[] = [];
  for (const use of uses) {
    if (run.signal.aborted) gated.push(cancelledCall(use));
    else gated.push(await gateCall(core, run, use, invalidInputs.get(use.id)));
  }
  return settleAsks(core, gated, turnId, run);
}

/**
 * Executes one batch of tool calls in the spec's order: every call gated (in order), all
 * asks requested together, then the calls run in call order, neighbouring
 * concurrency-safe calls together and any other call alone. Every call gets exactly one
 * result, in call order ("cancelled by user" when the turn is stopped). Rejects only when the
 * log cannot be written.
 */
export async function executeBatch(
  core: BatchCore,
  run: BatchRun,
  uses: readonly ToolUseBlock[],
  invalidInputs: ReadonlyMap<string, string>,
  turnId: TurnId,
  hooks: BatchHooks,
): Promise<ToolResultBlock[]> {
  const signal = run.signal;
  const calls = await gateAll(core, run, uses, turnId, invalidInputs);
  const results: ToolResultBlock[] = [];
  let i = 0;
  let wroteAny = false;
  while (i < calls.length) {
    const call = calls[i] as GatedCall;
    if (call.kind !== "ready" || signal.aborted) {
      const answered = call.kind === "answered" ? call : cancelledCall(call.use);
      results.push(await finishAnswered(run.transcript, answered, turnId));
      i++;
      continue;
    }
    const group: Ready[] = [call];
    if (call.tool.isConcurrencySafe(call.parsed)) {
      while (i + group.length < calls.length) {
        const next = calls[i + group.length] as GatedCall;
        if (next.kind !== "ready" || !next.tool.isConcurrencySafe(next.parsed)) break;
        group.push(next);
      }
    }
    if (!wroteAny && group.some((c) => !c.tool.isReadOnly(c.parsed))) {
      wroteAny = true;
      await hooks.beforeFirstWrite();
    }
    results.push(...(await Promise.all(group.map((c) => runCall(core, run, c, turnId, hooks)))));
    i += group.length;
  }
  return results;
}
