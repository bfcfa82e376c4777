import {
  emptyUsage,
  type MessageId,
  type TodoItem,
  type TurnId,
  type TurnOutcome,
  type Usage,
} from "@z-engine/protocol";

/** The mutable state of one user turn, shared by its rounds, its batch and its stop boundary. */
export interface TurnState {
  readonly turnId: TurnId;
  readonly signal: AbortSignal;
  readonly startedAt: number;
  /**
   * Workspace fingerprint at turn start (null when it could not be taken), taken while the
   * first request streams; the first call that may write waits for it.
   */
  readonly startFingerprint: Promise<string | null>;
  /** The turn's user message (checkpoints name it). */
  userMessageId: MessageId | undefined;
  usage: Usage;
  rounds: number;
  /** Real paths a write tool reported this turn. */
  readonly writtenPaths: Set<string>;
  /** When a write tool last reported a change (ms), for badge freshness. */
  lastChangeAt: number | undefined;
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

export function newTurnState(
  turnId: TurnId,
  signal: AbortSignal,
  startedAt: number,
  startFingerprint: Promise<string | null>,
): TurnState {
  return {
    turnId,
    signal,
    startedAt,
    startFingerprint,
    userMessageId: undefined,
    usage: emptyUsage(),
    rounds: 0,
    writtenPaths: new Set(),
    lastChangeAt: undefined,
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
