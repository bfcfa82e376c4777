import {
  type EngineEvent,
  type EngineEventOf,
  type EngineEventType,
  type EventEnvelope,
  parseEventEnvelope,
} from "@z-engine/protocol";

/**
 * An expected value: a literal compared with `Object.is`, an object whose listed keys must
 * match (others are ignored), an array matched element by element, or a predicate.
 */
export type Shape = unknown;

/** One expected event: its type alone, or its type with a shape its fields must match. */
export type ExpectedEvent = EngineEventType | ({ type: EngineEventType } & Record<string, Shape>);

/** True when `actual` matches `expected` as {@link Shape} describes. */
export function matchesShape(actual: unknown, expected: Shape): boolean {
  if (typeof expected === "function") return Boolean((expected as (v: unknown) => unknown)(actual));
  if (Array.isArray(expected)) {
    return (
      Array.isArray(actual) &&
      actual.length === expected.length &&
      expected.every((item, i) => matchesShape(actual[i], item))
    );
  }
  if (expected !== null && typeof expected === "object") {
    if (actual === null || typeof actual !== "object") return false;
    return Object.entries(expected).every(([key, value]) =>
      matchesShape((actual as Record<string, unknown>)[key], value),
    );
  }
  return Object.is(actual, expected);
}

const describe = (expected: ExpectedEvent) =>
  typeof expected === "string" ? expected : JSON.stringify(expected);

/**
 * Collects the envelopes a session emits and asserts on them. Pass `recorder.sink` as the
 * engine's event sink. Every envelope is checked against the protocol schema and `seq`
 * order on arrival; `problems` lists what failed, and the assertions fail while it is not empty.
 */
export class EventRecorder {
  readonly envelopes: EventEnvelope[] = [];
  readonly problems: string[] = [];
  private readonly lastSeq = new Map<string, number>();
  private waiters: Array<() => void> = [];

  /** The event sink: records one envelope. Never throws. */
  readonly sink = (envelope: EventEnvelope): void => {
    const parsed = parseEventEnvelope(envelope);
    if (!parsed.ok) {
      this.problems.push(
        `envelope #${this.envelopes.length} (${envelope?.event?.type}): ${parsed.error.path}: ${parsed.error.message}`,
      );
    }
    const last = this.lastSeq.get(envelope.sessionId);
    if (last !== undefined && envelope.seq <= last) {
      this.problems.push(`seq ${envelope.seq} after ${last} in session ${envelope.sessionId}`);
    }
    this.lastSeq.set(envelope.sessionId, envelope.seq);
    this.envelopes.push(envelope);
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  };

  /** The events in arrival order. */
  events(): EngineEvent[] {
    return this.envelopes.map((e) => e.event);
  }

  /** The event types in arrival order. */
  types(): EngineEventType[] {
    return this.envelopes.map((e) => e.event.type);
  }

  /** The events of one type, in order. */
  ofType<T extends EngineEventType>(type: T): EngineEventOf<T>[] {
    return this.events().filter((e): e is EngineEventOf<T> => e.type === type);
  }

  /** Forgets everything recorded so far. */
  clear(): void {
    this.envelopes.length = 0;
    this.problems.length = 0;
    this.lastSeq.clear();
  }

  /**
   * Finds `expected` as an ordered subsequence (other events may come between). Returns the
   * index in `expected` of the first one not found, or -1 when all were found.
   */
  findSubsequence(expected: readonly ExpectedEvent[], from = 0): number {
    let at = from;
    const events = this.events();
    for (let i = 0; i < expected.length; i++) {
      const want = expected[i] as ExpectedEvent;
      const shape = typeof want === "string" ? { type: want } : want;
      while (at < events.length && !matchesShape(events[at], shape)) at++;
      if (at === events.length) return i;
      at++;
    }
    return -1;
  }

  /**
   * Throws an Error naming the first missing event and listing what arrived, unless
   * `expected` occurs in order and every envelope was valid.
   */
  expectSubsequence(expected: readonly ExpectedEvent[]): void {
    if (this.problems.length > 0) {
      throw new Error(`invalid envelopes:\n  ${this.problems.join("\n  ")}`);
    }
    const missing = this.findSubsequence(expected);
    if (missing === -1) return;
    const want = expected[missing] as ExpectedEvent;
    throw new Error(
      `expected event #${missing} ${describe(want)} in order, not found.\n` +
        `found before it: ${expected.slice(0, missing).map(describe).join(", ") || "(none)"}\n` +
        `events: ${this.types().join(", ")}`,
    );
  }

  /**
   * Resolves with the first event (from `fromIndex` on) of `type` matching `shape`, waiting for
   * it to arrive; rejects after `timeoutMs` (default 10 s) naming the event and what arrived.
   */
  waitFor<T extends EngineEventType>(
    type: T,
    shape: Record<string, Shape> = {},
    options: { timeoutMs?: number; fromIndex?: number } = {},
  ): Promise<EngineEventOf<T>> {
    const want = { ...shape, type };
    const find = () =>
      this.envelopes
        .slice(options.fromIndex ?? 0)
        .map((e) => e.event)
        .find((e): e is EngineEventOf<T> => matchesShape(e, want));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== check);
        reject(new Error(`timed out waiting for ${type}; events: ${this.types().join(", ")}`));
      }, options.timeoutMs ?? 10_000);
      const check = () => {
        const found = find();
        if (found) {
          clearTimeout(timer);
          resolve(found);
        } else this.waiters.push(check);
      };
      check();
    });
  }
}
