import {
  type CheckId,
  type ContentBlock,
  newToolCallId,
  type ToolUseBlock,
  type TurnId,
} from "@z-engine/protocol";
import { autoCheckIds, stopVerdict } from "@z-engine/verify";
import type { SessionCore } from "../core/session-core.js";
import { changeState, turnBadge } from "../verification/badge.js";
import { type GateAllCore, gateAll } from "../batch/execute.js";
import type { GateRun } from "../batch/gate.js";
import type { DecisionHost } from "../decisions/session-hub.js";
import type { HookDeps } from "../hooks/run-hook.js";
import type { AgentRun } from "../core/agent-context.js";
import type { TurnState } from "../core/turn-state.js";
import { decideAtStop, selectChecks } from "../decisions/stop-seam.js";
import { agentHookDeps, runHook } from "../hooks/run-hook.js";

/** What the automatic checks take of their session: the gate of a batch, and the check port. */
type AutoCheckCore = GateAllCore & Pick<SessionCore, "ports">;

/**
 * What verification at a stop takes of its session: the checks and their records, the
 * settings, trust and the fingerprint, the decision layer, and the automatic checks' parts.
 */
type VerifyCore = AutoCheckCore &
  DecisionHost &
  Pick<
    SessionCore,
    "config" | "checks" | "checkRecords" | "projectRoot" | "trusted" | "fingerprint"
  >;

/** What the stop boundary takes of its session: Stop hooks, steering, and verification's parts. */
export type StopCore = VerifyCore & HookDeps & Pick<SessionCore, "steering" | "log">;

/** What the stop boundary takes of its agent's run: the gate's parts, its depth and transcript. */
export type StopRun = GateRun & Pick<AgentRun, "depth" | "transcript">;

/** Stop hooks may continue a turn at most this often (architecture.md, stop boundary step 1). */
export const MAX_STOP_HOOK_CONTINUATIONS = 5;

/** What the stop boundary decided: end the run, or continue it with these blocks. */
export type StopDecision =
  | { readonly end: true; readonly reason?: string }
  | { readonly end: false; readonly continueWith: ContentBlock[] };

const text = (t: string): ContentBlock[] => [{ type: "text", text: t }];

async function stopHooks(
  core: HookDeps & Pick<SessionCore, "log">,
  run: Pick<AgentRun, "depth" | "signal" | "agentId" | "agent">,
  turn: TurnState,
): Promise<StopDecision | null> {
  if (turn.stopHookContinuations >= MAX_STOP_HOOK_CONTINUATIONS) return null;
  const hook = await runHook(
    agentHookDeps(core, run.agent),
    run.depth === 0 ? "Stop" : "SubagentStop",
    {
      stop_hook_active: turn.stopHookContinuations > 0,
      ...(run.agentId ? subagentFields(core.log, run.agentId, run.agent.agentType) : {}),
    },
    {
      signal: run.signal,
      scope: { turnId: turn.turnId, ...(run.agentId ? { agentId: run.agentId } : {}) },
    },
  );
  if (!hook) return null;
  if (hook.stop) return { end: true, reason: hook.stopReason || "a Stop hook ended the turn" };
  if (!hook.blocked) return null;
  turn.stopHookContinuations++;
  return {
    end: false,
    continueWith: text(`A Stop hook asks you to continue: ${hook.blockReason}`),
  };
}

/**
 * Runs the automatic checks as a Verify call the engine makes itself: it passes the batch's
 * own gate (PreToolUse hooks, the policy and the sandbox's auto-allow, one approval, "always
 * allow" rules added and saved), then the checks run through the CheckPort. Resolves to
 * false, with a notice, when the call was refused or the checks cannot run.
 */
async function runAutoChecks(
  core: AutoCheckCore,
  run: GateRun,
  ids: readonly CheckId[],
  turnId: TurnId,
  signal: AbortSignal,
): Promise<boolean> {
  const port = core.ports.checks;
  if (!port || ids.length === 0) return false;
  const use: ToolUseBlock = {
    type: "toolUse",
    id: newToolCallId(),
    name: "Verify",
    input: { checks: [...ids] },
  };
  const [call] = await gateAll(core, run, [use], turnId);
  if (call?.kind !== "ready") {
    const why =
      call?.kind === "answered"
        ? call.result.content.map((c) => (c.type === "text" ? c.text : "")).join("")
        : "not answered";
    await core.journal.notice(
      "warning",
      "verification.denied",
      `automatic checks not run: ${why}`,
      {
        turnId,
      },
    );
    return false;
  }
  await port.run([...ids], signal);
  return true;
}

async function verification(
  core: VerifyCore,
  run: GateRun,
  turn: TurnState,
): Promise<StopDecision> {
  const settings = core.config.settings.verification;
  for (;;) {
    const state = await changeState(core, turn);
    if (!state.changed || run.signal.aborted) return { end: true };
    const badge = await turnBadge(core, turn, state);
    const auto = autoCheckIds({
      checks: core.checks(),
      ...(settings.auto_checks ? { configured: settings.auto_checks } : {}),
      changedPaths: [...turn.writtenPaths],
      projectRoot: core.projectRoot,
    });
    const verdict = stopVerdict({
      mode: settings.mode,
      trusted: core.trusted,
      filesChanged: true,
      badge,
      autoChecks: await selectChecks(core, turn, auto.ids),
      autoChecksRan: turn.autoChecksRan,
      continuationsUsed: turn.verifyContinuations,
      maxContinuations: settings.max_continuations,
      records: core.checkRecords,
    });
    if (verdict.action === "finish") return { end: true };
    if (verdict.action === "continue") {
      turn.verifyContinuations++;
      turn.autoChecksRan = false;
      return { end: false, continueWith: text(verdict.reminder) };
    }
    turn.autoChecksRan = true;
    if (!(await runAutoChecks(core, run, verdict.checkIds, turn.turnId, run.signal)))
      return { end: true };
  }
}

/** What a SubagentStop hook is told of the agent, as Claude Code tells it. */
function subagentFields(log: SessionCore["log"], agentId: string, agentType: string) {
  const path = log.agentTranscriptPath?.(agentId);
  return {
    agent_id: agentId,
    agent_type: agentType,
    ...(path ? { agent_transcript_path: path } : {}),
  };
}

/**
 * The stop boundary (architecture.md): Stop hooks (SubagentStop for a subagent) may continue
 * the run (at most 5 times a turn); for the main agent, steering that arrived meanwhile
 * continues it, and for a turn that changed files the verification mode may run checks and
 * send failures back. Otherwise the run ends.
 */
export async function stopBoundary(
  core: StopCore,
  run: StopRun,
  turn: TurnState,
): Promise<StopDecision> {
  const hooked = await stopHooks(core, run, turn);
  if (hooked) return hooked;
  if (run.depth > 0) return { end: true };
  if (core.steering.length > 0) return { end: false, continueWith: [] };
  return decideAtStop(core, run, turn, await verification(core, run, turn));
}
