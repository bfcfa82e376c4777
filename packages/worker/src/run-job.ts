import { DelayedError, type Job, UnrecoverableError } from "bullmq";
import type { Engine, SessionHandle } from "@z-engine/engine";
import type { TurnId } from "@z-engine/protocol";
import { type Replay, StoreError } from "@z-engine/store";
import type { ControlRouter } from "./control.js";
import { parseJob, type TurnJob, type TurnJobResult, type WorkerEvent } from "./jobs.js";
import { jobTurnStatus } from "./turn-status.js";
import { workspaceFolder } from "./workspace.js";

/** What a job runs with (one per worker process). */
export interface JobContext {
  readonly engine: Engine;
  /** The replay the store found when the engine opened a session (before crash repair). */
  readonly openedReplay: (sessionId: string) => Replay | undefined;
  readonly publish: (sessionId: string, event: WorkerEvent) => void;
  readonly control: ControlRouter;
  readonly workspaceRoots: readonly string[];
  readonly continuePrompt: string;
  /** How long a job waits before it tries a session another worker holds again, in ms. */
  readonly lockedRetryMs: number;
  readonly name: string;
}

/**
 * Runs one job: a `create` makes the session; a `prompt` opens the session (repairing what a
 * stopped worker left, as `zeng --resume` does), runs the prompt's turn (or, after a
 * takeover, a continuation turn; or nothing when the turn already ended), routes the
 * session's commands to it meanwhile, and closes it. A session another worker holds puts
 * the job back as delayed (`DelayedError`); bad jobs fail without retries.
 */
export async function runJob(
  ctx: JobContext,
  job: Job,
  token: string | undefined,
): Promise<TurnJobResult> {
  const data = parseJob(job.data);
  if (typeof data === "string") throw new UnrecoverableError(data);
  if (data.kind === "create") return create(ctx, data);
  let handle: SessionHandle;
  try {
    handle = await ctx.engine.openSession(data.sessionId, {
      onEvent: (envelope) => ctx.publish(data.sessionId, { type: "event", envelope }),
    });
  } catch (error) {
    if (error instanceof StoreError && error.code === "locked") {
      await job.moveToDelayed(Date.now() + ctx.lockedRetryMs, token);
      throw new DelayedError();
    }
    if (
      error instanceof StoreError &&
      (error.code === "notFound" || error.code === "invalidSessionId")
    )
      throw new UnrecoverableError(error.message);
    throw error;
  }
  try {
    const result = await runPrompt(ctx, handle, data);
    ctx.publish(data.sessionId, { type: "jobFinished", jobId: String(job.id), result });
    return result;
  } finally {
    await handle.close();
  }
}

async function create(
  ctx: JobContext,
  data: Extract<TurnJob, { kind: "create" }>,
): Promise<TurnJobResult> {
  const folder = await workspaceFolder(data.projectRoot, ctx.workspaceRoots);
  if (typeof folder === "string") throw new UnrecoverableError(folder);
  const handle = await ctx.engine.createSession(folder.path, data.overrides ?? {});
  await handle.close();
  return { kind: "created", sessionId: handle.id };
}

async function runPrompt(
  ctx: JobContext,
  handle: SessionHandle,
  data: Extract<TurnJob, { kind: "prompt" }>,
): Promise<TurnJobResult> {
  // The session's folder comes from the shared store: it must be a workspace of this worker too.
  const folder = await workspaceFolder(handle.projectRoot, ctx.workspaceRoots);
  if (typeof folder === "string") throw new UnrecoverableError(folder);
  const replay = ctx.openedReplay(handle.id);
  const status =
    replay === undefined ? { status: "new" as const } : jobTurnStatus(replay, data.turnId);
  ctx.publish(handle.id, {
    type: "opened",
    worker: ctx.name,
    takeover: status.status === "interrupted",
  });
  const base = { kind: "turn" as const, sessionId: handle.id };
  if (status.status === "ended") {
    const { end } = status;
    const takeovers = status.turns - 1;
    return {
      ...base,
      turnId: status.turnId,
      outcome: end.outcome,
      badge: end.badge ?? null,
      usage: end.usage ?? null,
      takeovers,
      alreadyDone: true,
    };
  }
  const detach = await ctx.control.attach(handle.id, handle);
  try {
    const fresh = status.status === "new";
    const turnId = (fresh ? data.turnId : `${data.turnId}-c${status.turns}`) as TurnId;
    handle.send({ type: "submit", text: fresh ? data.prompt : ctx.continuePrompt, turnId });
    const summary = await handle.turnEnd(turnId);
    return {
      ...base,
      turnId,
      outcome: summary.outcome,
      ...(summary.reason === undefined ? {} : { reason: summary.reason }),
      badge: summary.badge,
      usage: summary.usage,
      takeovers: fresh ? 0 : status.turns,
      alreadyDone: false,
    };
  } finally {
    await detach();
  }
}
