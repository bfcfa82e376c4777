import { hostname } from "node:os";
import { Worker } from "bullmq";
import { Redis } from "ioredis";
import { createEngine, type EngineOptions } from "@z-engine/engine";
import type { SessionStore } from "@z-engine/store";
import { capturingStore } from "./capturing-store.js";
import { ControlRouter } from "./control.js";
import type { TurnJobResult, WorkerEvent } from "./jobs.js";
import { keysOf, type QueueLocation } from "./keys.js";
import { runJob } from "./run-job.js";

/** What a worker process is told when it starts. */
export interface WorkerOptions extends QueueLocation {
  /** Redis (`redis://host:port`): the queue, the events and the commands. */
  readonly redis: string;
  /** The store every worker and host shares (Postgres: `@z-engine/store-postgres`). */
  readonly store: SessionStore;
  /**
   * Folders a job's project may lie in (real paths compared, symlinks resolved). The shared
   * disk every worker mounts at the same path; see the README for a container per session.
   */
  readonly workspaceRoots: readonly string[];
  /** The engine's options (model clients, settings, folders, sandbox...), without store and events. */
  readonly engine?: Omit<EngineOptions, "store" | "onEvent">;
  /** Jobs this process runs at once (default 4). */
  readonly concurrency?: number;
  /**
   * How long a job stays this worker's without renewal, in ms (BullMQ's `lockDuration`,
   * default 30,000): a worker that dies gives its job up after this, plus up to
   * `stalledIntervalMs` (default half of it) until another notices.
   */
  readonly lockDurationMs?: number;
  readonly stalledIntervalMs?: number;
  /** How often a job may be taken over before it fails (BullMQ's `maxStalledCount`, default 5). */
  readonly maxTakeovers?: number;
  /** How long a job whose session another worker holds waits before it tries again (default 250 ms). */
  readonly lockedRetryMs?: number;
  /** The user message of the turn that continues a session after a takeover. */
  readonly continuePrompt?: string;
  /** This worker's name in `opened` events (default `<hostname>:<pid>`). */
  readonly name?: string;
  /** Entries kept per session's event stream (default 10,000; older ones are trimmed). */
  readonly eventsMaxLen?: number;
}

/** A running worker. */
export interface TurnWorker {
  readonly name: string;
  /** Stops taking jobs, waits for the running ones, shuts the engine down and disconnects. Safe to call twice. */
  close(): Promise<void>;
}

/** The default user message of a continuation turn. */
export const CONTINUE_PROMPT =
  "The previous turn was interrupted: the worker running it stopped. Tool calls it left unanswered were not run again. Continue where it left off.";

/**
 * Starts a worker: an engine over `store`, a BullMQ worker on the queue, one connection
 * publishing events and one subscribed to commands. Resolves once it takes jobs. Rejects
 * when Redis cannot be reached.
 */
export async function startWorker(options: WorkerOptions): Promise<TurnWorker> {
  const keys = keysOf(options);
  const name = options.name ?? `${hostname()}:${process.pid}`;
  const store = capturingStore(options.store);
  const engine = await createEngine({ ...options.engine, store });
  const connect = () => new Redis(options.redis, { maxRetriesPerRequest: null, lazyConnect: true });
  const publisher = connect();
  const subscriber = connect();
  await Promise.all([publisher.connect(), subscriber.connect()]);
  const maxLen = String(options.eventsMaxLen ?? 10_000);
  const publish = (sessionId: string, event: WorkerEvent) => {
    publisher
      .xadd(keys.events(sessionId), "MAXLEN", "~", maxLen, "*", "e", JSON.stringify(event))
      .catch(() => {});
  };
  const control = new ControlRouter(subscriber, keys, publish);
  const lockDuration = options.lockDurationMs ?? 30_000;
  const ctx = {
    engine,
    openedReplay: (id: string) => store.take(id),
    publish,
    control,
    workspaceRoots: options.workspaceRoots,
    continuePrompt: options.continuePrompt ?? CONTINUE_PROMPT,
    lockedRetryMs: options.lockedRetryMs ?? 250,
    name,
  };
  const connection = connect();
  const worker = new Worker<unknown, TurnJobResult>(
    keys.queue,
    (job, token) => runJob(ctx, job, token),
    {
      connection,
      prefix: keys.prefix,
      concurrency: options.concurrency ?? 4,
      lockDuration,
      stalledInterval: options.stalledIntervalMs ?? Math.max(100, lockDuration / 2),
      maxStalledCount: options.maxTakeovers ?? 5,
      autorun: false,
    },
  );
  worker.on("error", () => {}); // connection trouble: BullMQ reconnects; jobs are retried
  worker.run().catch(() => {});
  await worker.waitUntilReady();
  let closed: Promise<void> | undefined;
  return {
    name,
    close: () => {
      closed ??= (async () => {
        await worker.close();
        await engine.shutdown();
        await Promise.allSettled([publisher.quit(), subscriber.quit(), connection.quit()]);
      })();
      return closed;
    },
  };
}
