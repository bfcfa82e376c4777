import {
  emptyUsage,
  type MessageId,
  type TodoItem,
  type TurnId,
  type TurnOutcome,
  type Usage,
} from "@z-engine/protocol";
import type { BashCheckRun } from "@z-engine/verify";

/** The mutable state of one user turn, shared by its rounds, its batch and its stop boundary. */
export interface TurnState {
  readonly turnId: TurnId;
  readonly signal: AbortSignal;
  readonly startedAt: number;
  /**
   * The turn's git work (the start fingerprint, and the checkpoint's snapshot when one is
   * taken): it starts once the first request went out, or when something needs it first.
   */
  readonly gitWork: TurnGitWork;
  /** The turn's user message (checkpoints name it). */
  userMessageId: MessageId | undefined;
  usage: Usage;
  rounds: number;
  /** Real paths a write tool reported this turn. */
  readonly writtenPaths: Set<string>;
  /** When a write tool last reported a change (ms), for badge freshness. */
  lastChangeAt: number | undefined;
  /** Checks whose own command ran through plain Bash this turn (not evidence; the badge names them). */
  readonly bashCheckRuns: BashCheckRun[];
  /** Records the checkpoint whose snapshot started with the turn; cleared once called. */
  recordCheckpoint: (() => Promise<void>) | undefined;
  overflowRetried: boolean;
  stopHookContinuations: number;
  verifyContinuations: number;
  autoChecksRan: boolean;
  /** The todo list as last seen, and rounds since it changed (for the todo nudge). */
  todosSeen: readonly TodoItem[] | undefined;
  roundsSinceTodos: number;
  /** Set just before turnFinished is recorded: what is left is flushing the log. */
  ended: boolean;
}

/** How an agent run ended. */
export interface RunEnd {
  readonly outcome: TurnOutcome;
  readonly reason?: string;
}

/**
 * A turn's git work: the workspace fingerprint at turn start, and the checkpoint's snapshot
 * (which waits on {@link started}). Nothing runs until {@link start}: the turn starts it once
 * its first request went out, so no child process is spawned on that request's path (issue
 * 18), and whatever needs the fingerprint first starts it. Before the first tool runs the
 * files are as they were when the turn started, so both still hold the turn's start.
 */
export class TurnGitWork {
  /** Resolves once {@link start} was called. */
  readonly started: Promise<void>;
  private readonly fingerprintOf: () => Promise<string | null>;
  private release: () => void = () => {};
  private fingerprinted: Promise<string | null> | undefined;

  /** `fingerprintOf` never rejects (null: the fingerprint could not be taken). */
  constructor(fingerprintOf: () => Promise<string | null>) {
    this.fingerprintOf = fingerprintOf;
    this.started = new Promise<void>((resolve) => {
      this.release = resolve;
    });
  }

  /** True once {@link start} was called. */
  get hasStarted(): boolean {
    return this.fingerprinted !== undefined;
  }

  /** Starts the work (idempotent). */
  start(): void {
    if (this.fingerprinted) return;
    this.release();
    // After the snapshot's first spawn (it runs in the microtasks `release` queues): the
    // snapshot's chain of steps is the longer one the first tool waits for.
    this.fingerprinted = new Promise<void>((resolve) => setImmediate(resolve)).then(() =>
      this.fingerprintOf(),
    );
  }

  /** The fingerprint at turn start (null when it could not be taken); starts the work. */
  fingerprint(): Promise<string | null> {
    this.start();
    return this.fingerprinted as Promise<string | null>;
  }
}

export function newTurnState(
  turnId: TurnId,
  signal: AbortSignal,
  startedAt: number,
  gitWork: TurnGitWork,
): TurnState {
  return {
    turnId,
    signal,
    startedAt,
    gitWork,
    userMessageId: undefined,
    usage: emptyUsage(),
    rounds: 0,
    writtenPaths: new Set(),
    lastChangeAt: undefined,
    bashCheckRuns: [],
    recordCheckpoint: undefined,
    overflowRetried: false,
    stopHookContinuations: 0,
    verifyContinuations: 0,
    autoChecksRan: false,
    todosSeen: undefined,
    roundsSinceTodos: 0,
    ended: false,
  };
}
