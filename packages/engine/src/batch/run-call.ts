import type { CheckDefinition, ToolDisplay, ToolResultBlock, TurnId } from "@z-engine/protocol";
import { runParsedTool } from "@z-engine/tools";
import type { BashCheckRun } from "@z-engine/verify";
import { answerFromDocs } from "../decisions/ask-seam.js";
import { relevantParts } from "../decisions/context-seams.js";
import { noteAfterCall, requestOf } from "../decisions/gate-seam.js";
import { fileLooker } from "../decisions/file-look.js";
import type { DecisionHost } from "../decisions/session-hub.js";
import { agentHookDeps, type HookDeps, runHook } from "../hooks/run-hook.js";
import type { AgentRun } from "../core/agent-context.js";
import type { SessionCore } from "../core/session-core.js";
import { linkedController } from "../util/abort.js";
import { bashCheckReminder, checkRunThroughBash } from "../verification/bash-check.js";
import type { GatedCall } from "./gate.js";
import { type ToolCtxCore, type ToolCtxRun, toolCtx } from "./tool-ctx.js";

/** What running a ready call takes of its session: its context's parts, hooks, seams and clock. */
export type CallCore = ToolCtxCore &
  HookDeps &
  DecisionHost &
  Pick<SessionCore, "clock" | "projectRoot" | "checks" | "trusted" | "doors">;

/** What running a ready call takes of its agent's run: its context's parts, transcript and reminders. */
export type CallRun = ToolCtxRun &
  Pick<AgentRun, "transcript" | "signal" | "instructions" | "reminders">;

/** The text of a result answered because the user stopped the turn. */
export const CANCELLED_RESULT = "cancelled by user";

/** What the batch tells the turn. */
export interface BatchHooks {
  /**
   * Called once, right before the first group that holds a call which is not read-only
   * runs (the turn's checkpoint and start fingerprint); read-only calls run without it.
   */
  beforeFirstWrite(): Promise<void>;
  /** Called with the real paths a call wrote. */
  onWritten(paths: readonly string[]): void;
  /** Called when a Bash call ran a check's own command (not evidence; the badge names it). */
  onCheckViaBash?(run: BashCheckRun): void;
}

/** A call the gate let through. */
export type Ready = Extract<GatedCall, { kind: "ready" }>;

/** What a tool's run gave back. */
type ToolOutput = Awaited<ReturnType<typeof runParsedTool>>;

/** Runs one ready call: toolStarted, progress, the call, PostToolUse, toolFinished. Never rejects but for the log. */
export async function runCall(
  core: CallCore,
  run: CallRun,
  call: Ready,
  turnId: TurnId,
  hooks: BatchHooks,
): Promise<ToolResultBlock> {
  const { transcript, signal } = run;
  const scope = { turnId };
  const started = core.clock();
  const node = linkedController(signal);
  const ctx = toolCtx(core, run, call.use.id, node.signal, (text) =>
    transcript.emit({ type: "toolProgress", toolCallId: call.use.id, text }, scope),
  );
  transcript.emit(
    {
      type: "toolStarted",
      toolCallId: call.use.id,
      toolName: call.tool.name,
      input: call.input,
      title: call.tool.title(call.parsed, ctx),
    },
    scope,
  );
  const output =
    (await answerFromDocs(core, call, { signal, turnId })) ??
    (await runParsedTool(call.tool, call.parsed, ctx));
  node.release();
  const cancelled = signal.aborted;
  if (output.thrown !== undefined)
    await transcript.notice(
      "warning",
      "tool.threw",
      `${call.tool.name} threw: ${output.thrown}`,
      scope,
    );
  if (output.writtenPaths.length > 0) hooks.onWritten(output.writtenPaths);
  for (const reminder of await run.instructions.touch([
    ...touchedPaths(call),
    ...output.writtenPaths,
  ]))
    run.reminders.add(reminder);
  const extra = cancelled
    ? []
    : await afterCall(core, run, call, output, { turnId, started, hooks });
  // Redacted here too, so that the model, the log and the events see the same result.
  const content = transcript.redactor.value(
    cancelled
      ? [{ type: "text" as const, text: CANCELLED_RESULT }]
      : [
          ...(await relevantParts(core, call, output.content, { signal, turnId })),
          ...extra.map((t) => ({ type: "text" as const, text: t })),
        ],
  );
  await recordFinished(core, transcript, call, output, { cancelled, started, turnId });
  return {
    type: "toolResult",
    toolUseId: call.use.id,
    content,
    isError: cancelled || output.isError,
  };
}

/**
 * What a call that ran (not cancelled) adds to its result: the PreToolUse hooks' context,
 * PostToolUse feedback, and the reminder of a check run through Bash; the decision model
 * notes the call too.
 */
async function afterCall(
  core: CallCore,
  run: CallRun,
  call: Ready,
  output: ToolOutput,
  at: { readonly turnId: TurnId; readonly started: number; readonly hooks: BatchHooks },
): Promise<string[]> {
  const { signal } = run;
  const text = output.content.map((c) => (c.type === "text" ? c.text : "")).join("");
  const hookDeps = agentHookDeps(core, run.agent);
  const extra = [
    ...call.hookContext,
    ...(await postToolHook(hookDeps, call, text, output.isError, signal)),
  ];
  const check = checkViaBash(core, call, output.display);
  if (check) {
    at.hooks.onCheckViaBash?.({ checkId: check.id, command: check.command, at: at.started });
    extra.push(bashCheckReminder(check).text);
  }
  await noteAfterCall(
    core,
    { id: call.use.id, toolName: call.tool.name, input: call.input },
    { text, isError: output.isError },
    { signal, turnId: at.turnId },
    run.reminders,
    () => ({
      look: fileLooker(core.doors.readable, run.root),
      files: run.files,
      prompt: requestOf(run.transcript.workingSet()),
      markRead: (run.confinement?.ports ?? core.ports).editor?.readTextFile === undefined,
    }),
  );
  return extra;
}

/** Records the call's `toolFinished` (its status, duration, written paths and display). */
async function recordFinished(
  core: Pick<CallCore, "clock">,
  transcript: CallRun["transcript"],
  call: Ready,
  output: ToolOutput,
  at: { readonly cancelled: boolean; readonly started: number; readonly turnId: TurnId },
): Promise<void> {
  const status: "cancelled" | "error" | "ok" = at.cancelled
    ? "cancelled"
    : output.isError
      ? "error"
      : "ok";
  const fields = {
    toolCallId: call.use.id,
    toolName: call.tool.name,
    status,
    durationMs: core.clock() - at.started,
    writtenPaths: [...output.writtenPaths],
    ...(output.display ? { display: output.display } : {}),
  };
  await transcript.record(
    "toolFinished",
    fields,
    { type: "toolFinished", ...fields },
    { turnId: at.turnId },
  );
}

async function postToolHook(
  core: HookDeps,
  call: Ready,
  text: string,
  isError: boolean,
  signal: AbortSignal,
): Promise<string[]> {
  const outcome = await runHook(
    core,
    "PostToolUse",
    {
      tool_name: call.tool.name,
      tool_input: call.input,
      tool_use_id: call.use.id,
      tool_response: { content: text, is_error: isError },
    },
    { subject: call.tool.name, signal },
  );
  if (!outcome) return [];
  const extra = [...outcome.additionalContext];
  if (outcome.blocked) extra.push(`PostToolUse hook feedback: ${outcome.blockReason}`);
  return extra;
}

function touchedPaths(call: Ready): string[] {
  return call.actions.flatMap((a) => (a.kind === "read" || a.kind === "write" ? [...a.paths] : []));
}

/** The check a Bash call's command was (same command, same folder), if any. */
function checkViaBash(
  core: Pick<CallCore, "checks" | "projectRoot">,
  call: Ready,
  display: ToolDisplay | undefined,
): CheckDefinition | undefined {
  if (call.tool.name !== "Bash" || display?.kind !== "command" || display.cwd === undefined)
    return undefined;
  return checkRunThroughBash(core.checks(), display.command, display.cwd, core.projectRoot);
}
