import type { Badge, EventEnvelope, Usage } from "@z-engine/protocol";
import type { Outcome } from "../exit-codes.js";

/** The last line of stream-json, and the body of `--output-format json`. */
export interface ResultLine {
  readonly type: "result";
  readonly outcome: Outcome;
  readonly badge: Badge;
  readonly usage: Usage;
  readonly costUsd: number;
  readonly sessionId: string;
  readonly durationMs: number;
  readonly reason?: string;
  /** The validated final answer (`--json-schema`). */
  readonly structuredOutput?: unknown;
}

/** What a headless run hands its output at the end. */
export interface RunEnd {
  readonly outcome: Outcome;
  readonly reason?: string;
  /** `--json-schema`: the validated final answer. */
  readonly structuredOutput?: unknown;
  /** `--json-schema`: why the final answer was not accepted after the retries. */
  readonly structuredError?: string;
  readonly usage: Usage;
  readonly badge: Badge;
  readonly durationMs: number;
  readonly sessionId: string;
}

/** Builds the result line from a turn's end. */
export function resultLine(end: RunEnd): ResultLine {
  return {
    type: "result",
    outcome: end.outcome,
    badge: end.badge,
    usage: end.usage,
    costUsd: end.usage.costUsd,
    sessionId: end.sessionId,
    durationMs: end.durationMs,
    ...(end.reason === undefined ? {} : { reason: end.reason }),
    ...(end.structuredOutput === undefined ? {} : { structuredOutput: end.structuredOutput }),
  };
}

/** Where output goes; both write synchronously or queue in order. */
export interface Io {
  stdout(text: string): void;
  stderr(text: string): void;
}

/** One output format: it sees every envelope, then the end of the run. */
export interface OutputFormatter {
  onEvent(envelope: EventEnvelope): void;
  finish(end: RunEnd): void;
}
