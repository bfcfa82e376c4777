import { InstructionTracker, ReminderQueue } from "@z-engine/context";
import { createShellSession } from "@z-engine/host";
import { type Message, newMessageId, type TurnId, type SystemSection } from "@z-engine/protocol";
import { closingRecords, type LogRecord, logRecord, ReplayFold } from "@z-engine/store";
import { createFileTracker } from "@z-engine/tools";
import type { AgentDefinition as RunAgent, AgentRun } from "../core/agent-context.js";
import { transcriptSink } from "../core/agent-context.js";
import { runAgent } from "../run/agent-run.js";
import { newTurnState, TurnGitWork } from "../core/turn-state.js";
import type { SessionCore } from "../core/session-core.js";
import { routeSubagent } from "../decisions/route-seam.js";
import { inheritsModel, resolveAgentModel, sessionModels } from "./agent-model.js";
import { subagentMcpFilter, subagentToolNames } from "./blueprint.js";
import { preloadSkills } from "./preload-skills.js";
import { agentHooks } from "./agent-hooks.js";
import type { HookRunner } from "../hooks/runner.js";
import type { SubagentEnd, SubagentRun } from "./subagent.js";
import { confineToWorktree, worktreeSystem } from "./worktree-confinement.js";

/** The subagent's system: its definition's prompt in place of the base prompt, then the rest. */
function subagentSystem(core: SessionCore, prompt: string): SystemSection[] {
  const [base, ...rest] = core.system;
  const own: SystemSection = { ...(base as SystemSection), text: prompt };
  return [own, ...rest];
}

function lastAssistantText(messages: readonly Message[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role !== "assistant") continue;
    const text = m.content
      .map((b) => (b.type === "text" ? b.text : ""))
      .join("")
      .trim();
    if (text) return text;
  }
  return "";
}

/** The subagent's definition as the loop takes it (`preloaded`: its `skills:`, loaded). */
function runAgentOf(
  core: SessionCore,
  run: SubagentRun,
  preloaded: string,
  hooks: HookRunner | undefined,
  routed: string | undefined,
): RunAgent {
  const def = run.definition;
  const model = () => routed ?? resolveAgentModel(def.model, sessionModels(core));
  const names = new Set(
    subagentToolNames(
      core.tools.map((t) => t.name),
      def,
      run.depth,
      core.config.settings.agents.max_depth,
    ),
  );
  const mcpFilter = subagentMcpFilter(def);
  const own = subagentSystem(core, preloaded ? `${def.prompt}\n\n${preloaded}` : def.prompt);
  // A worktree agent is told its worktree, not the project (its model uses these paths).
  const system = run.worktree ? worktreeSystem(core, own, run.worktree, model()) : own;
  return {
    agentType: def.name,
    system: () => system,
    tools: core.tools.filter((t) => names.has(t.name)),
    mcpTools: mcpFilter !== null,
    ...(mcpFilter ? { mcpFilter } : {}),
    model,
    effort: () => core.effort,
    // A session in bypass overrides every agent's mode at each call.
    mode: () => (core.mode === "bypass" ? "bypass" : run.mode),
    maxTurns: () => def.maxTurns ?? core.config.maxTurns,
    ...(hooks ? { hooks } : {}),
  };
}

/**
 * Starts the subagent's transcript: on resume, the stored one folded in and every call left
 * without a result answered; else its `agentStarted` record.
 */
async function beginTranscript(
  core: SessionCore,
  run: SubagentRun,
  fold: ReplayFold,
  log: { append(record: LogRecord): Promise<void> },
): Promise<void> {
  if (run.resume) {
    const stored = await core.log.readAgent(run.agentId);
    for (const record of stored.records) fold.apply(record);
    const closing = closingRecords(
      { ...stored.replay.resume, unfinishedTurn: null, runningAgents: [] },
      { badge: { status: "notApplicable", reason: "subagent", checks: [] }, ts: core.clock() },
    );
    for (const record of closing) await log.append(record);
  } else {
    // Its own transcript names its type, so a later session can resume it.
    const fields = {
      agentId: run.agentId,
      agentType: run.definition.name,
      description: run.description,
      background: run.background,
    };
    await log.append(logRecord("agentStarted", fields, core.clock()));
  }
}

/**
 * Runs one subagent with the engine's agent loop: its own transcript
 * (`agents/<id>.jsonl`, folded live into its working set; on resume, read back first and
 * any call left without a result answered "interrupted"), its root, depth and signal, its
 * own reminders, instruction tracking, file tracker and shell. The prompt is its first (or,
 * on resume, next) user message. Never rejects: an engine failure is a failed end.
 */
export async function runSubagent(
  core: SessionCore,
  run: SubagentRun,
  turnId: TurnId,
  env: Readonly<Record<string, string | undefined>> = {},
): Promise<SubagentEnd> {
  const fold = new ReplayFold();
  const log = {
    append: async (record: LogRecord) => {
      await core.log.appendAgent(run.agentId, record);
      fold.apply(record);
    },
  };
  const journal = core.journal.forAgent(run.agentId, log);
  const turn = newTurnState(turnId, run.signal, core.clock(), new TurnGitWork(async () => null));
  const confinement = run.worktree ? confineToWorktree(core, run.root, journal, env) : undefined;
  const preloaded = await preloadSkills(core, run.definition.name, run.definition.skills).catch(
    () => "",
  );
  const hooks = await agentHooks(core, run).catch(() => undefined);
  // The route seam at launch: an agent that inherits the session's model may be routed (model only).
  const routed = inheritsModel(run.definition.model)
    ? await routeSubagent(core, run.prompt, { signal: run.signal, turnId })
    : undefined;
  const agentRun: AgentRun = {
    agent: runAgentOf(core, run, preloaded, hooks, routed),
    transcript: transcriptSink(journal, () => fold.snapshot().workingSet.slice()),
    root: run.root,
    depth: run.depth,
    agentId: run.agentId,
    signal: run.signal,
    reminders: new ReminderQueue(),
    instructions: new InstructionTracker({
      projectRoot: run.root,
      scopedRules: [],
      homeDir: core.homeDir,
      fs: core.doors.instructions,
    }),
    files: createFileTracker(),
    shellSession: createShellSession(confinement?.shell ?? core.shell, { cwd: run.root }),
    ...(confinement ? { confinement } : {}),
  };
  try {
    await beginTranscript(core, run, fold, log);
    const message: Message = {
      id: newMessageId(),
      role: "user",
      content: [{ type: "text", text: run.prompt }],
    };
    await agentRun.transcript.record("message", { message, turnId });
    // Its tools' fast-model spend (WebFetch) finds its run's turn by its id.
    const untrack = core.state.trackAgentTurn(run.agentId, turn);
    const end = await runAgent(core, agentRun, turn).finally(untrack);
    return {
      outcome: end.outcome === "interrupted" ? "cancelled" : end.outcome,
      ...(end.reason ? { reason: end.reason } : {}),
      finalText: lastAssistantText(fold.snapshot().workingSet),
      usage: turn.usage,
      writtenPaths: [...turn.writtenPaths],
    };
  } catch (error) {
    return {
      outcome: "failed",
      reason: `engine error: ${(error as Error).message}`,
      finalText: lastAssistantText(fold.snapshot().workingSet),
      usage: turn.usage,
      writtenPaths: [...turn.writtenPaths],
    };
  }
}
