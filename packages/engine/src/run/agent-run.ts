import { buildRequest, todoNudgeReminder } from "@z-engine/context";
import { parseCommand } from "@z-engine/policy";
import type { ToolSpec } from "@z-engine/protocol";
import { type BatchCore, type BatchHooks, executeBatch } from "../batch/execute.js";
import { agentVision, type SessionCore } from "../core/session-core.js";
import { UserStop } from "../util/abort.js";
import { screenedMessages } from "../decisions/screen.js";
import { routedEffort, routedModel } from "../decisions/route-seam.js";
import { type AgentRun, agentToolSpecs } from "../core/agent-context.js";
import { type PressureCore, relievePressure } from "./pressure.js";
import { type StopCore, stopBoundary } from "./stop.js";
import { capReached } from "../core/spend.js";
import { type StreamCore, streamRound } from "./stream.js";
import type { RunEnd, TurnState } from "../core/turn-state.js";
import { appendUserMessage } from "./user-message.js";

/**
 * What an agent's run takes of its session: what each phase takes (context pressure, the
 * stream, the batch, the stop boundary), the MCP tools of each request, the todo list (for
 * the nudge) and the shared budget (the cost cap against the session's total).
 */
export type AgentRunCore = PressureCore &
  StreamCore &
  BatchCore &
  StopCore &
  Pick<SessionCore, "mcp" | "todos" | "config" | "state" | "liveSettings">;

/** The largest response asked for, whatever the catalog allows. */
const MAX_RESPONSE_TOKENS = 32_000;

/** Rounds with unfinished todos and no TodoWrite before the model is nudged. */
export const TODO_NUDGE_ROUNDS = 10;

/** Queues a todo nudge when the list has open items and has not changed for a while. */
function nudgeTodos(
  core: Pick<SessionCore, "todos">,
  run: Pick<AgentRun, "reminders">,
  turn: TurnState,
): void {
  if (core.todos !== turn.todosSeen) {
    turn.todosSeen = core.todos;
    turn.roundsSinceTodos = 0;
    return;
  }
  turn.roundsSinceTodos++;
  const open = core.todos.some((t) => t.status !== "completed");
  if (!open || turn.roundsSinceTodos < TODO_NUDGE_ROUNDS) return;
  turn.roundsSinceTodos = 0;
  run.reminders.add(todoNudgeReminder(`todo:${turn.turnId}:${turn.rounds}`));
}

function cancelled(run: AgentRun): RunEnd {
  const reason = run.signal.reason;
  return {
    outcome: "cancelled",
    reason: reason instanceof UserStop ? reason.message : "cancelled",
  };
}

function budgetEnd(
  core: Pick<SessionCore, "config" | "state">,
  run: Pick<AgentRun, "agent">,
  turn: TurnState,
): RunEnd | null {
  const maxTurns = run.agent.maxTurns();
  if (turn.rounds >= maxTurns) {
    return {
      outcome: "budgetExhausted",
      reason: `the turn reached agents.max_turns (${maxTurns} rounds)`,
    };
  }
  return costEnd(core, turn);
}

/** The end of a run whose turn or session reached its cost cap (fast-model spend counts). */
function costEnd(core: Pick<SessionCore, "config" | "state">, turn: TurnState): RunEnd | null {
  const reason = capReached(core, turn);
  return reason ? { outcome: "budgetExhausted", reason } : null;
}

/** A round's request: the model's limits and vision, the agent's system prompt, the screened working set. */
async function roundRequest(
  core: AgentRunCore,
  run: AgentRun,
  turn: TurnState,
  model: string,
  tools: ToolSpec[],
) {
  const info = core.catalog.info(model);
  const effort = run.agent.effort() ?? routedEffort(run, turn);
  return buildRequest({
    model,
    system: run.agent.system(),
    tools,
    messages: await screenedMessages(
      core,
      { signal: run.signal, turnId: turn.turnId },
      run.transcript.workingSet(),
    ),
    maxTokens: Math.min(info.maxOutputTokens, MAX_RESPONSE_TOKENS),
    vision: agentVision(core, model),
    ...(effort ? { effort } : {}),
  });
}

/**
 * What runs once a round's request body is written (or anything came back), once: MCP
 * servers and a held repo map build start then, so neither spawn delays the request (issue
 * 18), and the turn's first request starts its git work.
 */
function whenSent(core: AgentRunCore, turn: TurnState, ownTools: ToolSpec[]): () => void {
  // Until one of the turn's requests went out (the first, unless it failed before).
  const first = turn.gitWork.hasStarted ? undefined : afterFirstRequest(turn, ownTools);
  let out = false;
  return () => {
    if (out) return;
    out = true;
    first?.();
    core.mcp.releaseStarts();
    core.repoMap?.requestSent();
  };
}

/** What a batch tells the turn: the checkpoint before the first write, written paths, checks run through Bash. */
function batchHooks(core: AgentRunCore, turn: TurnState): BatchHooks {
  return {
    beforeFirstWrite: () => takeCheckpoint(turn),
    onWritten: (paths) => {
      for (const p of paths) turn.writtenPaths.add(p);
      turn.lastChangeAt = core.clock();
    },
    onCheckViaBash: (ran) => turn.bashCheckRuns.push(ran),
  };
}

/**
 * One agent's loop, for the main agent and subagents alike: rounds of budgets (the agent's
 * `maxTurns`, the session's shared cost cap), context pressure, request, stream and record,
 * then either the tool batch or the stop boundary (architecture.md, "One round of an agent
 * run"). Records go to `run.transcript` and the working set comes from it; the request lists
 * the agent's tools (plus MCP tools when its definition takes them) and the gate finds calls
 * only among them; `turn` counts its rounds and usage (usage also adds to the session's
 * total). Resolves with how the run ended (cancelled once `run.signal` aborts); rejects only
 * on the engine's own failures (its transcript cannot be written).
 */
export async function runAgent(
  core: AgentRunCore,
  run: AgentRun,
  turn: TurnState,
): Promise<RunEnd> {
  const ownTools = agentToolSpecs(run.agent);
  for (;;) {
    if (run.signal.aborted) return cancelled(run);
    // A settings edit made during the turn applies from the next round on (issue 46).
    await core.liveSettings?.atRound();
    const budget = budgetEnd(core, run, turn);
    if (budget) return budget;
    // MCP tools join each request as the servers are then (list_changed, LoadMcpTools).
    if (run.agent.mcpTools) await core.mcp.refreshed();
    const mcp = run.agent.mcpTools ? core.mcp.requestSpecs() : [];
    const tools = [...ownTools, ...mcp.filter((s) => run.agent.mcpFilter?.(s.name) ?? true)];
    turn.rounds++;
    await relievePressure(core, run, turn, tools, false);
    // A compaction's summary may have spent the rest of the budget: no request then.
    const spent = costEnd(core, turn);
    if (spent) return spent;
    const model = routedModel(run, turn) ?? run.agent.model();
    const request = await roundRequest(core, run, turn, model, tools);
    const sent = whenSent(core, turn, ownTools);
    const response = await streamRound(core, run, core.client("main", model), request, turn, sent);
    core.repoMap?.firstResponse();
    if (response.error) {
      if (run.signal.aborted || response.error.kind === "cancelled") return cancelled(run);
      if (response.error.kind === "contextOverflow" && !turn.overflowRetried) {
        turn.overflowRetried = true;
        await relievePressure(core, run, turn, tools, true);
        continue;
      }
      return { outcome: "failed", reason: `${response.error.kind}: ${response.error.message}` };
    }
    if (response.toolUses.length === 0) {
      const stop = await stopBoundary(core, run, turn);
      if (stop.end)
        return { outcome: "completed", ...(stop.reason ? { reason: stop.reason } : {}) };
      await appendUserMessage(core, run, turn, stop.continueWith);
      continue;
    }
    const results = await executeBatch(
      core,
      run,
      response.toolUses,
      response.invalidInputs,
      turn.turnId,
      batchHooks(core, turn),
    );
    if (run.depth === 0) {
      nudgeTodos(core, run, turn);
      // A fresh small project's first build (running since the first request went out).
      await core.repoMap?.beforeUserMessage();
    }
    await appendUserMessage(core, run, turn, results);
  }
}

/**
 * Records the turn's checkpoint right before its first call that may write runs (design.md
 * §3, issue 18); its snapshot and the start fingerprint ran before any tool, so both hold
 * the files as they were when the turn started. Read-only calls do not wait. Never rejects
 * for git trouble.
 */
async function takeCheckpoint(turn: TurnState): Promise<void> {
  const record = turn.recordCheckpoint;
  turn.recordCheckpoint = undefined;
  await Promise.all([record?.(), turn.gitWork.fingerprint()]);
}

/**
 * What runs once the turn's first request went out (the returned function is called then;
 * idempotent): the turn's git work starts, then the shell parser loads with a first parse
 * (tree-sitter compiles its code on first use), so both run while the model answers and a
 * first Bash call waits for neither, and neither delays the request (issue 18). The parser
 * comes after the start fingerprint: the git work is mostly synchronous in process, every
 * call that may write waits for it, and a command of plain words needs no parser. Never
 * rejects: a parser that cannot load is the gate's business.
 */
/**
 * How long after the first request went out the shell parser starts loading: a hosted model
 * answers no sooner, so the parser is ready for its first Bash call, while an answer that
 * comes at once (a local or scripted model) has its calls under way before the load holds
 * up the session's thread.
 */
const PARSER_WARM_DELAY_MS = 100;

function afterFirstRequest(
  turn: TurnState,
  tools: readonly { readonly name: string }[],
): () => void {
  const warmParser = tools.some((tool) => tool.name === "Bash");
  let done = false;
  return () => {
    if (done) return;
    done = true;
    turn.gitWork.start();
    if (!warmParser) return;
    const warm = () =>
      void turn.gitWork
        .fingerprint()
        .then(() => parseCommand("git status && npm test 2>&1 | tail -n 5"))
        .catch(() => {});
    setTimeout(warm, PARSER_WARM_DELAY_MS).unref();
  };
}
