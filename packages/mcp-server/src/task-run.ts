import { relative } from "node:path";
import {
  type Engine,
  readSessionView,
  type SessionHandle,
  type SessionOverrides,
  type TurnSummary,
} from "@z-engine/engine";
import {
  type Badge,
  type EventEnvelope,
  newTurnId,
  type PermissionMode,
  type TurnOutcome,
  type Usage,
} from "@z-engine/protocol";
import { stricterMode } from "./mode-cap.js";

/** One delegated piece of work: a new session in `cwd`, or a reply in a stored one. */
export type TaskRequest =
  | {
      readonly kind: "task";
      readonly prompt: string;
      readonly cwd: string;
      readonly mode?: PermissionMode;
    }
  | {
      readonly kind: "reply";
      readonly prompt: string;
      readonly sessionId: string;
      readonly mode?: PermissionMode;
    };

/** What a task gives back: the answer, the badge, the files it changed, and how it ended. */
export interface TaskResult {
  readonly sessionId: string;
  readonly outcome: TurnOutcome | null;
  readonly answer: string;
  readonly badge: Badge;
  /** Paths the write tools reported, relative to the project folder, in first-write order. */
  readonly changedFiles: string[];
  readonly mode: PermissionMode;
  readonly usage: Usage;
  readonly reason?: string;
}

/** What a run is told as it goes: a step (a tool call started), for progress notifications. */
export interface TaskHooks {
  readonly signal: AbortSignal;
  readonly onStep?: (step: number, message: string) => void;
}

/** Collects a turn's answer, changed files and steps from its events; denies every ask. */
function watcher(hooks: TaskHooks, session: () => SessionHandle | undefined) {
  const written: string[] = [];
  let answer = "";
  let steps = 0;
  const onEvent = ({ event, agentId }: EventEnvelope) => {
    if (event.type === "assistantFinished" && agentId === undefined) {
      const text = event.message.content.flatMap((b) => (b.type === "text" ? [b.text] : []));
      if (text.length > 0) answer = text.join("");
    } else if (event.type === "toolFinished") {
      for (const p of event.writtenPaths) if (!written.includes(p)) written.push(p);
    } else if (event.type === "toolStarted") hooks.onStep?.(++steps, event.title);
    // An engine that is not headless would wait for an answer no one gives here.
    else if (event.type === "approvalRequested")
      session()?.send({
        type: "resolveApproval",
        approvalId: event.approvalId,
        decision: { type: "deny", feedback: "No one can approve calls of a delegated task." },
      });
  };
  return { onEvent, written, answer: () => answer };
}

async function open(
  engine: Engine,
  request: TaskRequest,
  options: SessionOverrides & { onEvent: (e: EventEnvelope) => void },
) {
  if (request.kind === "task") return engine.createSession(request.cwd, options);
  return engine.openSession(request.sessionId, options);
}

/**
 * Runs one prompt as a turn of a new or stored session and closes the session again. The mode
 * is the stricter of the one asked for and the session's own (its settings, or the host's
 * override): a caller can tighten it, never loosen it. Every ask is denied (headless, or here),
 * so the call may do only what the folder's settings allow. Aborting `hooks.signal` cancels the
 * turn. Rejects when the session cannot be opened (no such folder or session, or it is busy).
 */
export async function runTask(
  engine: Engine,
  request: TaskRequest,
  overrides: SessionOverrides,
  hooks: TaskHooks,
): Promise<TaskResult> {
  let session: SessionHandle | undefined;
  const watch = watcher(hooks, () => session);
  const { mode: _, ...rest } = overrides;
  session = await open(engine, request, {
    ...rest,
    ...(overrides.mode ? { mode: overrides.mode } : {}),
    onEvent: watch.onEvent,
  });
  try {
    const own = (await readSessionView(session.logPath).catch(() => undefined))?.mode ?? "ask";
    const mode = stricterMode(own, request.mode);
    if (mode !== own) session.send({ type: "setMode", mode });
    const summary = await turn(session, request.prompt, hooks.signal);
    return resultOf(session, summary, mode, watch.answer(), watch.written);
  } finally {
    await session.close();
  }
}

async function turn(
  session: SessionHandle,
  prompt: string,
  signal: AbortSignal,
): Promise<TurnSummary> {
  const turnId = newTurnId();
  const ended = session.turnEnd(turnId);
  const cancel = () => session.send({ type: "cancel" });
  if (signal.aborted) cancel();
  else signal.addEventListener("abort", cancel, { once: true });
  session.send({ type: "submit", text: prompt, turnId });
  try {
    return await ended;
  } finally {
    signal.removeEventListener("abort", cancel);
  }
}

function resultOf(
  session: SessionHandle,
  summary: TurnSummary,
  mode: PermissionMode,
  answer: string,
  written: readonly string[],
): TaskResult {
  return {
    sessionId: session.id,
    outcome: summary.outcome,
    answer,
    badge: summary.badge,
    changedFiles: written.map((p) => relative(session.projectRoot, p) || p),
    mode,
    usage: summary.usage,
    ...(summary.reason ? { reason: summary.reason } : {}),
  };
}
