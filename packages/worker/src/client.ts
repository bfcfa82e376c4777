import { randomUUID } from "node:crypto";
import { Queue, QueueEvents } from "bullmq";
import { Redis } from "ioredis";
import type { EngineCommand } from "@z-engine/protocol";
import { type CreateOverrides, jobTurnId, type TurnJobResult, type WorkerEvent } from "./jobs.js";
import { keysOf, type QueueLocation } from "./keys.js";

/** Options of {@link connectWorkerClient}. */
export interface WorkerClientOptions extends QueueLocation {
  /** Redis (`redis://host:port`), the same the workers use. */
  readonly redis: string;
}

/** A prompt on the queue: its job, and the turn it starts. */
export interface SubmittedTurn {
  readonly jobId: string;
  readonly turnId: string;
}

/** One entry of a session's event stream. */
export interface FollowedEvent {
  /** The stream entry id: pass it as `from` to go on after it. */
  readonly id: string;
  readonly event: WorkerEvent;
}

/** Options of `WorkerClient.follow`. */
export interface FollowOptions {
  /** Start after this entry id; `"0"` from the oldest kept; default: new entries only. */
  readonly from?: string;
  /** Ends the loop (its connection is dropped at once). */
  readonly signal?: AbortSignal;
}

/** A host's side of the workers: enqueue, follow, send commands. */
export interface WorkerClient {
  /** Queues the creation of a session in a project folder and resolves with its id once a worker made it. Rejects with the job's failure. */
  createSession(projectRoot: string, overrides?: CreateOverrides): Promise<string>;
  /** Queues a prompt for a session; any worker runs it once the session is free. */
  submit(sessionId: string, prompt: string): Promise<SubmittedTurn>;
  /** Resolves with a job's result once it finished; rejects with its failure (or after `timeoutMs`). */
  result(jobId: string, timeoutMs?: number): Promise<TurnJobResult>;
  /**
   * Sends a command (steer, cancel, interrupt, an approval, question or plan answer, a mode,
   * model or effort change, killJob) to the worker running the session. Resolves true when a
   * worker holds the session and got it, false when none runs it now (the command is lost).
   */
  send(sessionId: string, command: EngineCommand): Promise<boolean>;
  /** The session's events (and worker entries) in order, live, until `signal` aborts or the client closes. */
  follow(sessionId: string, options?: FollowOptions): AsyncIterable<FollowedEvent>;
  /** Disconnects. Safe to call twice. */
  close(): Promise<void>;
}

/** Connects to the queue. Rejects when Redis cannot be reached. */
export async function connectWorkerClient(options: WorkerClientOptions): Promise<WorkerClient> {
  const keys = keysOf(options);
  const connect = () => new Redis(options.redis, { maxRetriesPerRequest: null, lazyConnect: true });
  const redis = connect();
  await redis.connect();
  const queueConnection = connect();
  const queue = new Queue(keys.queue, { connection: queueConnection, prefix: keys.prefix });
  const eventsConnection = connect();
  const events = new QueueEvents(keys.queue, { connection: eventsConnection, prefix: keys.prefix });
  await Promise.all([queue.waitUntilReady(), events.waitUntilReady()]);
  // Every `result` waiting at once holds a listener until its job ends: hundreds are normal.
  queue.setMaxListeners(0);
  events.setMaxListeners(0);
  const followers = new Set<Redis>();
  const kept = { removeOnComplete: 1000, removeOnFail: 1000 };
  const client: WorkerClient = {
    async createSession(projectRoot, overrides) {
      const job = await queue.add(
        "create",
        { kind: "create", projectRoot, ...(overrides ? { overrides } : {}) },
        { jobId: randomUUID(), ...kept },
      );
      const result = (await job.waitUntilFinished(events)) as TurnJobResult;
      if (result.kind !== "created") throw new Error("the create job returned no session");
      return result.sessionId;
    },
    async submit(sessionId, prompt) {
      const jobId = randomUUID();
      const turnId = jobTurnId(jobId);
      await queue.add("prompt", { kind: "prompt", sessionId, prompt, turnId }, { jobId, ...kept });
      return { jobId, turnId };
    },
    async result(jobId, timeoutMs) {
      const job = await queue.getJob(jobId);
      if (job === undefined) throw new Error(`no job ${jobId}`);
      return (await job.waitUntilFinished(events, timeoutMs)) as TurnJobResult;
    },
    async send(sessionId, command) {
      return (await redis.publish(keys.control(sessionId), JSON.stringify(command))) > 0;
    },
    follow: (sessionId, followOptions = {}) =>
      follow(connect, followers, keys.events(sessionId), followOptions),
    close: async () => {
      for (const f of followers) f.disconnect();
      await Promise.allSettled([queue.close(), events.close()]);
      await Promise.allSettled([redis.quit(), queueConnection.quit(), eventsConnection.quit()]);
    },
  };
  return client;
}

async function* follow(
  connect: () => Redis,
  followers: Set<Redis>,
  key: string,
  options: FollowOptions,
): AsyncGenerator<FollowedEvent> {
  const redis = connect();
  followers.add(redis);
  const stop = () => redis.disconnect();
  options.signal?.addEventListener("abort", stop, { once: true });
  try {
    await redis.connect();
    let from = options.from ?? "$";
    while (!options.signal?.aborted && followers.has(redis)) {
      const reply = (await redis.xread("BLOCK", 0, "STREAMS", key, from).catch(() => null)) as
        | [string, [string, string[]][]][]
        | null;
      if (reply === null) break;
      for (const [id, fields] of reply[0]?.[1] ?? []) {
        from = id;
        const event = parseEntry(fields[1]);
        if (event !== undefined) yield { id, event };
      }
    }
  } finally {
    options.signal?.removeEventListener("abort", stop);
    followers.delete(redis);
    redis.disconnect();
  }
}

// An entry the stream holds that is not a worker's (written by hand) is skipped.
function parseEntry(text: string | undefined): WorkerEvent | undefined {
  try {
    const value = JSON.parse(text ?? "") as WorkerEvent;
    return typeof value === "object" && value !== null && typeof value.type === "string"
      ? value
      : undefined;
  } catch {
    return undefined;
  }
}
