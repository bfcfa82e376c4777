/** Where the worker and its clients meet in Redis: the BullMQ queue and the per-session keys. */
export interface QueueLocation {
  /** The BullMQ queue's name (default `zeng-turns`). */
  readonly queue?: string;
  /** The Redis key prefix of the queue and of the session keys (default `zeng`). */
  readonly prefix?: string;
}

/** The names both sides compute from a `QueueLocation`. */
export interface Keys {
  readonly queue: string;
  readonly prefix: string;
  /** The stream a session's events are added to (capped). */
  events(sessionId: string): string;
  /** The pub/sub channel commands for a session are published on. */
  control(sessionId: string): string;
}

/** The keys of a location. Never throws. */
export function keysOf(location: QueueLocation = {}): Keys {
  const queue = location.queue ?? "zeng-turns";
  const prefix = location.prefix ?? "zeng";
  return {
    queue,
    prefix,
    events: (id) => `${prefix}:${queue}:session-events:${id}`,
    control: (id) => `${prefix}:${queue}:session-control:${id}`,
  };
}
