import type { CompiledRule } from "@z-engine/policy";
import {
  type Badge,
  type ContentBlock,
  type ImageBlock,
  newMessageId,
  type TurnId,
  type TurnOutcome,
  type Usage,
} from "@z-engine/protocol";
import type { SessionCore } from "../core/session-core.js";
import { turnBadge } from "../verification/badge.js";
import { beginTurnOverrides } from "./turn-overrides.js";
import type { AgentRun } from "../core/agent-context.js";
import { type AgentRunCore, runAgent } from "./agent-run.js";
import { routeTurn } from "../decisions/route-seam.js";
import { judgeTurn } from "../decisions/stop-seam.js";
import { remindAtTurnStart } from "../decisions/context-seams.js";
import { applyTaskView } from "../decisions/task-view.js";
import { mainAgentRun, type MainRunCore } from "./main-agent.js";
import { newTurnState, type RunEnd, TurnGitWork, type TurnState } from "../core/turn-state.js";
import { drainSteering, queueChangedFiles } from "./user-message.js";
import { type HookDeps, runHook } from "../hooks/run-hook.js";
import type { HookTable } from "../hooks/types.js";
import { queueAgentMentions } from "./agent-mentions.js";

/**
 * What a user turn takes of its session: the main agent's run and what it runs on, and for
 * the turn itself the log (turn records, its sync), the clock and fingerprint, the
 * checkpoint, the turn's overrides (instructions, rules, model) and the badge's records.
 */
export type TurnCore = AgentRunCore &
  MainRunCore &
  Pick<
    SessionCore,
    | "log"
    | "clock"
    | "fingerprint"
    | "beginCheckpoint"
    | "definitions"
    | "state"
    | "checkRecords"
    | "hooks"
    | "liveSettings"
  >;

/** What a user turn submits. */
export interface Submission {
  readonly text: string;
  readonly images?: readonly ImageBlock[];
  /** Blocks after the text (a command's `<command>` body). */
  readonly blocks?: readonly ContentBlock[];
  /** Allow rules for this turn only (a command's allowed-tools). */
  readonly rules?: readonly CompiledRule[];
  /** A model for this turn only (a command's `model`). */
  readonly model?: string;
  /** Hooks for this turn only, beside the session's (a command's or skill's `hooks:`). */
  readonly hooks?: HookTable;
}

/** How a turn ended, as hosts await it. `outcome` null: a UserPromptSubmit hook blocked the prompt. */
export interface TurnSummary {
  readonly turnId: TurnId;
  readonly outcome: TurnOutcome | null;
  readonly reason?: string;
  readonly usage: Usage;
  readonly badge: Badge;
  readonly durationMs: number;
}

const NOT_APPLICABLE: Badge = { status: "notApplicable", reason: "no turn ran", checks: [] };

async function promptHooks(
  core: HookDeps & Pick<SessionCore, "reminders">,
  turnId: TurnId,
  prompt: string,
  signal: AbortSignal,
): Promise<string | null> {
  const hook = await runHook(core, "UserPromptSubmit", { prompt }, { signal });
  if (!hook) return null;
  for (const m of hook.systemMessages) await core.journal.notice("info", "hook.message", m);
  if (hook.blocked || hook.stop)
    return hook.blockReason || hook.stopReason || "blocked by a UserPromptSubmit hook";
  for (const [i, text] of hook.additionalContext.entries())
    core.reminders.add({ key: `prompt:${turnId}:${i}`, text });
  return null;
}

async function openTurn(
  core: Pick<SessionCore, "steering" | "journal" | "ports" | "reminders" | "repoMap">,
  run: AgentRun,
  turn: TurnState,
  submission: Submission,
): Promise<void> {
  const turnId = turn.turnId;
  await queueChangedFiles(run);
  await queueAgentMentions(core, turnId, submission.text, submission.blocks);
  // The first prompt carries the map an earlier session left (read since the session opened).
  await core.repoMap?.beforeUserMessage();
  const content: ContentBlock[] = [
    { type: "text", text: submission.text },
    ...(submission.blocks ?? []),
    ...(submission.images ?? []),
    ...drainSteering(core),
  ];
  const message = run.reminders.appendTo({ id: newMessageId(), role: "user", content });
  turn.userMessageId = message.id;
  await core.journal.record(
    "turnStarted",
    { turnId, userMessageId: message.id, prompt: submission.text },
    { type: "turnStarted", turnId, userMessageId: message.id, prompt: submission.text },
    { turnId },
  );
  await run.transcript.record("message", { message, turnId });
}

/**
 * Runs one user turn (how-it-works.md, "One turn at a glance"): UserPromptSubmit hooks,
 * turnStarted, the agent run, the badge, then turnFinished with outcome, usage and badge,
 * and an fsync of the log. An engine failure ends the turn as failed with a notice; nothing
 * is thrown to the host. Rejects only when even the turn's end cannot be recorded.
 */
export async function runTurn(
  core: TurnCore,
  turnId: TurnId,
  submission: Submission,
  signal: AbortSignal,
  onState: (turn: TurnState) => void = () => {},
): Promise<TurnSummary> {
  const startedAt = core.clock();
  // A settings edit made while idle or during the last turn is in place before the hooks run.
  await core.liveSettings?.atTurnStart();
  const blocked = await promptHooks(core, turnId, submission.text, signal);
  if (blocked !== null) {
    await core.journal.notice("warning", "hook.promptBlocked", blocked);
    return {
      turnId,
      outcome: null,
      reason: blocked,
      usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, costUsd: 0 },
      badge: NOT_APPLICABLE,
      durationMs: 0,
    };
  }
  // Taken once the first request went out: the first call that may write waits for it.
  const gitWork = new TurnGitWork(() => core.fingerprint().catch(() => null));
  const turn = newTurnState(turnId, signal, startedAt, gitWork);
  onState(turn);
  const main = mainAgentRun(core, signal);
  const run: AgentRun = submission.hooks
    ? { ...main, agent: { ...main.agent, hooks: core.hooks.with(submission.hooks) } }
    : main;
  let end: RunEnd;
  const restore = await beginTurnOverrides(core, submission);
  try {
    await remindAtTurnStart(core, turn, submission.text);
    await openTurn(core, run, turn, submission);
    await applyTaskView(core, turn);
    await routeTurn(core, turn, submission.text);
    turn.recordCheckpoint = core.beginCheckpoint?.(turn);
    end = await runAgent(core, run, turn);
  } catch (error) {
    end = { outcome: "failed", reason: `engine error: ${(error as Error).message}` };
    await core.journal.notice("error", "engine.turnFailed", end.reason ?? "engine error", {
      turnId,
    });
  } finally {
    restore();
  }
  const badge = await turnBadge(core, turn).catch(
    (): Badge => ({ status: "unverified", reason: "the badge could not be computed", checks: [] }),
  );
  const durationMs = core.clock() - startedAt;
  const scope = { turnId };
  if (badge.status !== "notApplicable")
    core.journal.emit({ type: "verificationChanged", badge }, scope);
  const fields = {
    turnId,
    outcome: end.outcome,
    usage: turn.usage,
    badge,
    durationMs,
    ...(end.reason ? { reason: end.reason } : {}),
  };
  turn.ended = true;
  await core.journal.record("turnEnded", fields, { type: "turnFinished", ...fields }, scope);
  await syncTurn(core, turnId);
  judgeTurn(core, turnId, submission.text, [...turn.writtenPaths]);
  return { ...fields };
}

/**
 * Flushes the log at the turn's end. A device that cannot (EIO) says nothing of what reached
 * the kernel, but what the turn recorded may not survive a crash: a warning says so.
 */
async function syncTurn(core: TurnCore, turnId: TurnId): Promise<void> {
  try {
    await core.log.sync();
  } catch (error) {
    const why = (error as Error).message;
    await core.journal.notice(
      "warning",
      "store.syncFailed",
      `the session log could not be flushed to the disk: ${why}; what this turn recorded may not survive a crash`,
      { turnId },
    );
  }
}
