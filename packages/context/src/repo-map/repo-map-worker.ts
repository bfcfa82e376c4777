// The repo map's worker thread (node:worker_threads). In its "index" role it owns a
// RepoIndex: it lists nothing itself, it is sent the paths, tags them (spreading the parsing
// over parser threads, this same file in its "parser" role), ranks and renders, answers with
// the map, then writes the tag cache. Nothing here runs on the session's thread.
import { getPriority, setPriority } from "node:os";
import { isMainThread, parentPort, workerData } from "node:worker_threads";
import { type ParseJob, parseHere } from "./parse-jobs.js";
import { type ParseRequest, ParserPool } from "./parser-pool.js";
import { RepoIndex } from "./repo-index.js";
import { renderRepoMap } from "./repo-map.js";
import {
  WORKER_NICE,
  type WorkerCommand,
  type WorkerReply,
  type WorkerSetup,
} from "./worker-protocol.js";

function serveParser(port: NonNullable<typeof parentPort>): void {
  port.on("message", (request: ParseRequest) => {
    // Each text is let go once its file is parsed (not kept for the whole batch), so it dies
    // in the young generation.
    const texts: Array<string | null> = request.jobs.map((job) => job.text);
    const jobs: ParseJob[] = request.jobs.map((job, i) => ({
      language: job.language,
      text: () => {
        const text = texts[i] ?? null;
        texts[i] = null;
        return text;
      },
    }));
    void answer(port, request.id, jobs);
  });
}

async function answer(
  port: NonNullable<typeof parentPort>,
  id: number,
  jobs: readonly ParseJob[],
): Promise<void> {
  const result = await parseHere(jobs, undefined, Number.POSITIVE_INFINITY);
  port.postMessage({ id, ...result });
}

function serveIndex(
  port: NonNullable<typeof parentPort>,
  setup: Extract<WorkerSetup, { role: "index" }>,
): void {
  // With parser threads this thread only reads and hands out files (and parses a small update).
  const pool = new ParserPool(new URL(import.meta.url), setup.helpers, false);
  const index = new RepoIndex({
    root: setup.root,
    ...(setup.cacheFile ? { cacheFile: setup.cacheFile } : {}),
    // This thread has nothing else to do: it yields only to hear its parser threads.
    sliceMs: 50,
    ...(setup.helpers > 0 ? { parse: pool.parse } : {}),
  });
  // Each build has its own controller: a stop ends the running build, not the later ones.
  let controller = new AbortController();
  let running = -1;
  const stopped = new Set<number>();
  let closing = false;
  const reply = (message: WorkerReply) => port.postMessage(message);
  let queue = Promise.resolve();
  const build = async (command: Extract<WorkerCommand, { type: "build" }>) => {
    const started = performance.now();
    controller = new AbortController();
    running = command.id;
    if (closing || stopped.delete(command.id)) controller.abort(new Error("stopped"));
    try {
      const update = await index.update(command.paths, controller.signal);
      await pool.close();
      const map = renderRepoMap(index.files, {
        tokens: command.tokens,
        ...(command.focus ? { focus: command.focus } : {}),
      });
      reply({ type: "built", id: command.id, map, update, buildMs: performance.now() - started });
    } catch (error) {
      await pool.close();
      const stopped = controller.signal.aborted;
      reply({ type: "failed", id: command.id, message: (error as Error).message, stopped });
    }
    // The map is out; the cache file is written after (also after a stop: what was tagged is kept).
    reply({ type: "saved", problem: index.save() });
  };
  port.on("message", (command: WorkerCommand) => {
    if (command.type === "stop") {
      if (command.id === undefined) closing = true;
      else if (command.id !== running) stopped.add(command.id);
      if (command.id === undefined || command.id === running)
        controller.abort(new Error("the repo map build was stopped"));
      queue = queue.then(() => reply({ type: "stopped" }));
      return;
    }
    queue = queue.then(() => build(command));
  });
}

/**
 * On Linux a thread's nice value is its own, so the map's threads step back for the session's
 * thread and the commands it runs (a build, a test run) when the cores are busy: WORKER_NICE
 * below the thread that started them (whose nice a new thread inherits), at most 19. Never an
 * absolute value: under `nice -n 19`, a root process's map would have been raised above the
 * session. Elsewhere setpriority(0) would renice the whole process, so nothing changes there.
 */
function stepBack(): void {
  if (process.platform !== "linux") return;
  try {
    setPriority(Math.min(19, getPriority() + WORKER_NICE));
  } catch {
    // Not allowed here: the thread keeps its priority.
  }
}

if (!isMainThread && parentPort) {
  const setup = workerData as WorkerSetup;
  // The index thread steps back; its parser threads, which it starts, inherit its nice.
  if (setup.role === "parser") serveParser(parentPort);
  else {
    stepBack();
    serveIndex(parentPort, setup);
  }
}
