/**
 * @z-engine/worker: sessions as BullMQ jobs over a shared store. Everything exported here is
 * public API; everything else is internal.
 */

// The worker process
/**
 * `startWorker(options)`: an engine over the shared store taking jobs from the queue; see
 * `WorkerOptions` for leases, takeovers and workspaces. Rejects when Redis cannot be reached.
 */
export { CONTINUE_PROMPT, startWorker } from "./worker.js";
export type { TurnWorker, WorkerOptions } from "./worker.js";

// The host's side
/**
 * `connectWorkerClient(options)`: enqueue sessions and prompts, await results, follow a
 * session's events live and send it commands (approval answers, steering, cancel).
 */
export { connectWorkerClient } from "./client.js";
export type {
  FollowedEvent,
  FollowOptions,
  SubmittedTurn,
  WorkerClient,
  WorkerClientOptions,
} from "./client.js";

// Jobs and stream entries
/** The job kinds, their results and a session stream's entries (JSON in Redis). */
export type { CreateOverrides, TurnJob, TurnJobResult, WorkerEvent } from "./jobs.js";
/** Where workers and clients meet in Redis: the queue's name and the key prefix. */
export type { QueueLocation } from "./keys.js";
