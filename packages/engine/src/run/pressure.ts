import {
  type CompactFailureStage,
  clearToolResults,
  compact,
  planToolResultClearing,
} from "@z-engine/context";
import type { TodoItem, ToolSpec } from "@z-engine/protocol";
import type { SessionCore } from "../core/session-core.js";
import type { AgentRun } from "../core/agent-context.js";
import type { TurnState } from "../core/turn-state.js";
import {
  meteredClient,
  type SpendAttribution,
  type SpendCore,
  type SpendTurn,
} from "../core/spend.js";
import { type HookDeps, runHook } from "../hooks/run-hook.js";
import { plannedClears } from "../decisions/context-seams.js";
import type { DecisionHost } from "../decisions/session-hub.js";

/**
 * What compacting takes of its session: the fast model and its settings, the estimator, the
 * PreCompact hooks, and the repo map to rebuild.
 */
export type CompactCore = HookDeps &
  SpendCore &
  Pick<SessionCore, "config" | "client" | "estimator" | "repoMap" | "state">;

/**
 * What relieving context pressure takes of its session: compaction's parts, the window sizes,
 * the artifact sink, and the decision layer (which old results to clear).
 */
export type PressureCore = CompactCore & DecisionHost & Pick<SessionCore, "catalog" | "log">;

/** What relieving context pressure takes of its agent's run. */
export type PressureRun = Pick<AgentRun, "agent" | "transcript" | "signal" | "depth" | "agentId">;

/** Recent history a compaction keeps as it is, as a share of the window (or, after an overflow, of the history). */
const KEEP_RECENT_SHARE = 0.25;

async function clearOldResults(
  core: DecisionHost & Pick<PressureCore, "estimator" | "log">,
  run: Pick<AgentRun, "transcript">,
  turn: TurnState,
  window: number,
  baseTokens: number,
): Promise<void> {
  const messages = run.transcript.workingSet();
  const plan = planToolResultClearing(messages, {
    windowTokens: window,
    estimator: core.estimator,
    baseTokens,
  });
  if (!plan) return;
  const cleared = await clearToolResults(
    messages,
    await plannedClears(core, turn, messages, plan),
    core.log.artifacts,
  );
  if (!cleared) return;
  await run.transcript.record("toolResultsCleared", { clearing: cleared.clearing });
  for (const f of cleared.failures) {
    await run.transcript.notice(
      "warning",
      "context.spillFailed",
      `the original of tool result ${f.toolUseId} could not be stored: ${f.error}`,
      { turnId: turn.turnId },
    );
  }
}

/**
 * Relieves context pressure before a request (architecture.md, round step 2): above half the
 * window old tool results are cleared (originals to artifacts); above `compact_at_percent`,
 * or when `force`d by a context-overflow error, older history is summarised by the fast
 * model after the PreCompact hook. A failed summary leaves history as it was, with a notice.
 * Rejects only when the log cannot be written.
 */
export async function relievePressure(
  core: PressureCore,
  run: PressureRun,
  turn: TurnState,
  tools: readonly ToolSpec[],
  force: boolean,
): Promise<void> {
  const window = core.catalog.info(run.agent.model()).contextWindow;
  const system = run.agent.system();
  const baseTokens = core.estimator.estimateRequest({ system, tools, messages: [] });
  await clearOldResults(core, run, turn, window, baseTokens);
  const history = core.estimator.estimateMessages(run.transcript.workingSet());
  if (!force && baseTokens + history <= (window * core.config.compactAtPercent) / 100) return;
  // After an overflow the estimate was wrong, so keep a share of the history, not of the window.
  const keep = Math.floor((force ? history : window) * KEEP_RECENT_SHARE);
  await compactNow(core, run, force ? "overflow" : "auto", keep, turn);
}

/** What `compactNow` did: compacted, or why not (a sentence). */
export type CompactNowResult =
  | { readonly done: true }
  | { readonly done: false; readonly stage: CompactFailureStage; readonly reason: string };

/**
 * Summarises older history now (also `/compact`): emits compactionStarted once a split is
 * planned, runs the PreCompact hook, records the compaction (with its ledger; the main
 * agent's open todos are quoted verbatim in the summary) and emits compacted, or a warning
 * notice when summarising fails. The summary's spend is the turn's (when one runs) and the
 * run's agent's, source `compaction`; with a cost cap reached no summary is asked for (the
 * notice says why).
 */
export async function compactNow(
  core: CompactCore,
  run: Pick<AgentRun, "transcript" | "signal" | "depth" | "agentId">,
  trigger: "auto" | "manual" | "overflow",
  keepRecentTokens: number,
  turn?: SpendTurn,
): Promise<CompactNowResult> {
  const { transcript, signal } = run;
  const scope = turn ? { turnId: turn.turnId } : {};
  const model = core.config.fastModel;
  const who: SpendAttribution = {
    source: "compaction",
    ...(turn ? { turn } : {}),
    ...(run.agentId ? { agentId: run.agentId } : {}),
  };
  const result = await compact({
    messages: transcript.workingSet(),
    client: meteredClient(core, core.client("fast", model), () => who),
    model,
    estimator: core.estimator,
    trigger,
    keepRecentTokens,
    signal,
    ...(run.depth === 0 ? { openTodos: openTodos(core.state.todos) } : {}),
    beforeCompact: async () => {
      transcript.emit(
        { type: "compactionStarted", trigger: trigger === "manual" ? "manual" : "auto" },
        scope,
      );
      const hook = await runHook(
        core,
        "PreCompact",
        { trigger: trigger === "manual" ? "manual" : "auto", custom_instructions: "" },
        { signal },
      );
      if (!hook) return { proceed: true };
      if (hook.blocked) return { proceed: false, reason: `PreCompact hook: ${hook.blockReason}` };
      return hook.additionalContext.length > 0
        ? { proceed: true, instructions: hook.additionalContext.join("\n") }
        : { proceed: true };
    },
  });
  if (!result.ok) {
    if (result.stage !== "nothing")
      await transcript.notice(
        "warning",
        "context.compactionFailed",
        `compaction did not happen: ${result.reason}`,
        scope,
      );
    return { done: false, stage: result.stage, reason: result.reason };
  }
  const c = result.compaction;
  await transcript.record(
    "compaction",
    { compaction: c },
    {
      type: "compacted",
      marker: {
        summaryMessageId: c.summary.id,
        droppedMessages: c.droppedMessageIds.length,
        tokensBefore: c.tokensBefore,
        tokensAfter: c.tokensAfter,
      },
    },
    scope,
  );
  // A compaction is a rebuild point: the map is indexed again and ranked for what is left.
  if (run.depth === 0) core.repoMap?.rebuild();
  return { done: true };
}

/** The todo items not completed, as the summary quotes them (`[status] content`). */
function openTodos(todos: readonly TodoItem[]): string[] {
  return todos.filter((t) => t.status !== "completed").map((t) => `[${t.status}] ${t.content}`);
}
