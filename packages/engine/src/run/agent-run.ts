import { buildRequest, todoNudgeReminder } from "@z-engine/context";
import { addUsage, type ToolSpec } from "@z-engine/protocol";
import { executeBatch } from "../batch/execute.js";
import { modelVision, type SessionCore } from "../session/core.js";
import { UserStop } from "../util/abort.js";
import { requestSystem } from "../repo-map/system.js";
import { relievePressure } from "./pressure.js";
import { stopBoundary } from "./stop.js";
import { streamRound } from "./stream.js";
import type { RunEnd, TurnState } from "./turn-state.js";
import { appendUserMessage } from "./user-message.js";

/** The largest response asked for, whatever the catalog allows. */
const MAX_RESPONSE_TOKENS = 32_000;

/** Rounds with unfinished todos and no TodoWrite before the model is nudged. */
export const TODO_NUDGE_ROUNDS = 10;

/** Queues a todo nudge when the list has open items and has not changed for a while. */
function nudgeTodos(core: SessionCore, turn: TurnState): void {
  if (core.todos !== turn.todosSeen) {
    turn.todosSeen = core.todos;
    turn.roundsSinceTodos = 0;
    return;
  }
  turn.roundsSinceTodos++;
  const open = core.todos.some((t) => t.status !== "completed");
  if (!open || turn.roundsSinceTodos < TODO_NUDGE_ROUNDS) return;
  turn.roundsSinceTodos = 0;
  core.reminders.add(todoNudgeReminder(`todo:${turn.turnId}:${turn.rounds}`));
}

function cancelled(turn: TurnState): RunEnd {
  const reason = turn.signal.reason;
  return {
    outcome: "cancelled",
    reason: reason instanceof UserStop ? reason.message : "cancelled",
  };
}

function budgetEnd(core: SessionCore, turn: TurnState): RunEnd | null {
  if (turn.rounds >= core.config.maxTurns) {
    return {
      outcome: "budgetExhausted",
      reason: `the turn reached agents.max_turns (${core.config.maxTurns} rounds)`,
    };
  }
  const cap = core.config.costCapUsd;
  if (cap !== undefined && core.totalUsage.costUsd >= cap) {
    return {
      outcome: "budgetExhausted",
      reason: `the session reached its cost cap ($${cap.toFixed(2)})`,
    };
  }
  return null;
}

/**
 * The main agent's loop: rounds of budgets, context pressure, request, stream and record,
 * then either the tool batch or the stop boundary (architecture.md, "One round of an agent
 * run"). Resolves with how the run ended; rejects only on the engine's own failures (the
 * log cannot be written), which end the turn as failed.
 */
export async function runAgent(
  core: SessionCore,
  turn: TurnState,
  builtinTools: readonly ToolSpec[],
): Promise<RunEnd> {
  if (turn.rounds === 0) turn.recordCheckpoint = core.beginCheckpoint?.(turn);
  for (;;) {
    if (turn.signal.aborted) return cancelled(turn);
    const budget = budgetEnd(core, turn);
    if (budget) return budget;
    // MCP tools join each request as the servers are then (list_changed, LoadMcpTools).
    await core.mcp.refreshed();
    const tools = [...builtinTools, ...core.mcp.requestSpecs()];
    turn.rounds++;
    await relievePressure(core, turn, tools, false);
    const info = core.catalog.info(core.model);
    const request = buildRequest({
      model: core.model,
      system: requestSystem(core),
      tools,
      messages: core.workingSet(),
      maxTokens: Math.min(info.maxOutputTokens, MAX_RESPONSE_TOKENS),
      vision: modelVision(core),
      ...(core.effort ? { effort: core.effort } : {}),
    });
    const stream = streamRound(
      core,
      core.client("main", core.model),
      request,
      turn.turnId,
      turn.signal,
    );
    core.mcp.releaseStarts();
    const response = await stream;
    core.repoMap?.firstResponse();
    turn.usage = addUsage(turn.usage, response.usage);
    if (response.error) {
      if (turn.signal.aborted || response.error.kind === "cancelled") return cancelled(turn);
      if (response.error.kind === "contextOverflow" && !turn.overflowRetried) {
        turn.overflowRetried = true;
        await relievePressure(core, turn, tools, true);
        continue;
      }
      return { outcome: "failed", reason: `${response.error.kind}: ${response.error.message}` };
    }
    if (response.toolUses.length === 0) {
      const stop = await stopBoundary(core, turn);
      if (stop.end)
        return { outcome: "completed", ...(stop.reason ? { reason: stop.reason } : {}) };
      await appendUserMessage(core, turn, stop.continueWith);
      continue;
    }
    const results = await executeBatch(
      core,
      response.toolUses,
      response.invalidInputs,
      turn.turnId,
      turn.signal,
      {
        beforeFirstWrite: () => takeCheckpoint(turn),
        onWritten: (paths) => {
          for (const p of paths) turn.writtenPaths.add(p);
          turn.lastChangeAt = core.clock();
        },
      },
    );
    nudgeTodos(core, turn);
    await appendUserMessage(core, turn, results);
  }
}

/**
 * Records the turn's checkpoint right before its first call that may write runs (design.md
 * §3, issue 18); its snapshot and the start fingerprint started with the turn, so both hold
 * the files as they were before it. Read-only calls do not wait. Never rejects for git trouble.
 */
async function takeCheckpoint(turn: TurnState): Promise<void> {
  const record = turn.recordCheckpoint;
  turn.recordCheckpoint = undefined;
  await Promise.all([record?.(), turn.startFingerprint]);
}
