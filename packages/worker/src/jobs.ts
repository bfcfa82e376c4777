import {
  type Badge,
  type EventEnvelope,
  PERMISSION_MODES,
  type TurnOutcome,
  type Usage,
} from "@z-engine/protocol";

/** Overrides a new session may be given (the engine's `SessionOverrides`, JSON-safe). */
export interface CreateOverrides {
  readonly mode?: "ask" | "acceptEdits" | "plan" | "bypass";
  readonly model?: string;
  readonly effort?: "low" | "medium" | "high";
  readonly maxTurns?: number;
  readonly verification?: "off" | "report" | "auto" | "strict";
}

/** A job on the queue: make a session in a project folder, or run one prompt in a session. */
export type TurnJob =
  | { readonly kind: "create"; readonly projectRoot: string; readonly overrides?: CreateOverrides }
  | {
      readonly kind: "prompt";
      readonly sessionId: string;
      readonly prompt: string;
      /** The turn the prompt starts (from the job id): how a takeover tells what already ran. */
      readonly turnId: string;
    };

/** What a job resolves with. */
export type TurnJobResult =
  | { readonly kind: "created"; readonly sessionId: string }
  | {
      readonly kind: "turn";
      readonly sessionId: string;
      /** The turn that ended: the prompt's, or after a takeover the continuation's. */
      readonly turnId: string;
      readonly outcome: TurnOutcome | null;
      readonly reason?: string;
      readonly badge: Badge | null;
      readonly usage: Usage | null;
      /** Workers that took the job over after the one running it stopped (0: none). */
      readonly takeovers: number;
      /** True when the turn had already ended when this worker opened the session (nothing ran). */
      readonly alreadyDone: boolean;
    };

/** One entry of a session's event stream, as `follow` yields it. */
export type WorkerEvent =
  | { readonly type: "event"; readonly envelope: EventEnvelope }
  /** A command the worker did not pass on (not JSON, not a command, or not one a worker takes). */
  | { readonly type: "rejected"; readonly reason: string }
  /** The session was opened by a worker (`takeover`: after another stopped mid-turn). */
  | { readonly type: "opened"; readonly worker: string; readonly takeover: boolean }
  | { readonly type: "jobFinished"; readonly jobId: string; readonly result: TurnJobResult };

const MODES = new Set<string>(PERMISSION_MODES);

/** Checks a job's data as it comes off the queue; a string says what is wrong. Never throws. */
export function parseJob(data: unknown): TurnJob | string {
  if (typeof data !== "object" || data === null) return "the job has no data object";
  const job = data as Record<string, unknown>;
  if (job.kind === "create") {
    if (typeof job.projectRoot !== "string" || job.projectRoot === "")
      return "a create job needs projectRoot";
    const overrides = job.overrides as CreateOverrides | undefined;
    if (overrides !== undefined && (typeof overrides !== "object" || overrides === null))
      return "overrides must be an object";
    if (overrides?.mode !== undefined && !MODES.has(overrides.mode))
      return `unknown mode ${String(overrides.mode)}`;
    return { kind: "create", projectRoot: job.projectRoot, ...(overrides ? { overrides } : {}) };
  }
  if (job.kind === "prompt") {
    for (const key of ["sessionId", "prompt", "turnId"] as const)
      if (typeof job[key] !== "string" || job[key] === "") return `a prompt job needs ${key}`;
    return job as TurnJob;
  }
  return `unknown job kind ${JSON.stringify(job.kind)}`;
}

/** The turn id of a prompt job: stable across retries and takeovers of the same job. */
export const jobTurnId = (jobId: string) => `turn_job_${jobId}`;
