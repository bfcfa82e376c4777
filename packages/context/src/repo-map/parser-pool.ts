import { Worker } from "node:worker_threads";
import type { MapLanguage } from "./languages.js";
import { jobText, type ParseJob, parseHere, type ParseResult } from "./parse-jobs.js";
import type { FileTags } from "./tags.js";
import { PARSER_OPTIONS } from "./worker-protocol.js";

/** Most files a thread takes at a time (fewer near the end, so that the threads finish together). */
const BATCH = 8;

/**
 * Batches each parser thread holds at once: the next one waits in its queue while it parses,
 * so it never waits for this thread (busy parsing its own batch) to send it more.
 */
const IN_FLIGHT = 2;

/**
 * How long a parser thread may take to answer one batch before it is stopped (default one
 * minute: a batch takes well under a second, seconds on a loaded machine). A thread that
 * never answers would otherwise hold its build for ever.
 */
export const BATCH_DEADLINE_MS = 60_000;

/** A parser thread that did not answer a batch in time (it was stopped). */
class NoAnswer extends Error {}

/** A request to a parser thread (texts read), and its answer. */
export interface ParseRequest {
  readonly id: number;
  readonly jobs: ReadonlyArray<{ readonly language: MapLanguage; readonly text: string }>;
}
export interface ParseAnswer {
  readonly id: number;
  readonly tags: ReadonlyArray<FileTags | null>;
  readonly problems: readonly string[];
}

class Helper {
  private readonly waiting = new Map<number, (answer: ParseAnswer | Error) => void>();
  private nextId = 0;
  private failure: Error | null = null;
  /** Batches this thread answered. */
  answered = 0;

  constructor(
    private readonly worker: Worker,
    private readonly deadlineMs: number,
  ) {
    worker.unref();
    worker.on("message", (answer: ParseAnswer) => {
      this.answered++;
      this.waiting.get(answer.id)?.(answer);
      this.waiting.delete(answer.id);
    });
    // An error (out of memory, say) comes before the exit: the first failure is the one kept.
    const fail = (error: Error) => {
      this.failure ??= error;
      for (const done of this.waiting.values()) done(error);
      this.waiting.clear();
    };
    worker.on("error", fail);
    worker.on("exit", (code) => fail(new Error(`the parser thread exited (${code})`)));
  }

  /** Sends `jobs` now; nothing keeps their texts while the thread parses them. */
  parse(jobs: ParseRequest["jobs"]): Promise<ParseAnswer> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    try {
      this.worker.postMessage({ id, jobs } satisfies ParseRequest);
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.giveUp(), this.deadlineMs);
      timer.unref();
      this.waiting.set(id, (answer) => {
        clearTimeout(timer);
        if (answer instanceof Error) reject(answer);
        else resolve(answer);
      });
    });
  }

  /** Stops a thread that did not answer in time: every batch it holds fails. */
  private giveUp(): void {
    const error = new NoAnswer(`no answer within ${Math.round(this.deadlineMs / 1000)} s`);
    this.failure ??= error;
    for (const done of this.waiting.values()) done(error);
    this.waiting.clear();
    void this.worker.terminate();
  }

  /** Whether it failed for a batch too large for its heap, after answering some, or hung. */
  get worthReplacing(): boolean {
    const code = (this.failure as { code?: unknown } | null)?.code;
    if (this.failure instanceof NoAnswer) return true;
    return this.failure !== null && (code === "ERR_WORKER_OUT_OF_MEMORY" || this.answered > 0);
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }
}

/**
 * Reads a batch's texts and sends them to `helper` (a text that cannot be read goes empty,
 * and is marked in `unread`). The texts are not kept while the batch is parsed: kept that
 * long they outlived the young generation and filled the old one with garbage.
 */
function sendBatch(
  helper: Helper,
  batch: readonly ParseJob[],
): { readonly answer: Promise<ParseAnswer | Error>; readonly unread: readonly boolean[] } {
  const unread: boolean[] = [];
  const answer = helper
    .parse(
      batch.map((job, i) => {
        const text = jobText(job);
        unread[i] = text === null;
        return { language: job.language, text: text ?? "" };
      }),
    )
    .catch((error: Error) => error);
  return { answer, unread };
}

/**
 * Parses on `helpers` threads running `script` (the repo map worker in its parser role),
 * each taking a few files at a time, and on this thread too unless `alsoHere` is false (then
 * this thread only reads the files and hands them out, so that the helpers never wait for
 * it). A parse of at most a batch of files runs on this thread alone unless the helpers
 * are running. Helper threads start at the first larger parse and stop at
 * {@link ParserPool.close}; a helper that fails hands its files back to this thread, and the
 * failure is one of the result's problems. A helper that does not answer a batch within
 * `batchDeadlineMs` is stopped and replaced, and that batch's files get no tags (they may be
 * what hangs a parser), which is one of the problems too.
 */
export class ParserPool {
  private started: Helper[] | null = null;

  constructor(
    private readonly script: URL,
    private readonly helpers: number,
    private readonly alsoHere = true,
    private readonly batchDeadlineMs = BATCH_DEADLINE_MS,
  ) {}

  /** A {@link TagParser} over the pool; rejects only with the signal's reason when aborted. */
  readonly parse = async (
    jobs: readonly ParseJob[],
    signal?: AbortSignal,
  ): Promise<ParseResult> => {
    // Once started (until close), the helpers take even a small chunk (the last of a build).
    const wanted = jobs.length > BATCH || this.started !== null;
    const helpers = wanted && this.helpers > 0 ? this.start() : [];
    const here = helpers.length === 0 || this.alsoHere;
    const tags: Array<FileTags | null> = new Array(jobs.length).fill(null);
    const problems = new Set<string>();
    let next = 0;
    const threads = helpers.length + (here ? 1 : 0);
    // A batch: BATCH files, fewer once less is left than two rounds of the threads' batches,
    // so that no thread is left parsing a whole batch while the others have nothing to do.
    const take = (): readonly [number, number] | null => {
      const left = jobs.length - next;
      if (left <= 0) return null;
      const size = Math.max(1, Math.min(BATCH, Math.floor(left / (2 * threads * IN_FLIGHT))));
      const from = next;
      next += size;
      return [from, next];
    };
    const keep = (from: number, result: ParseResult | ParseAnswer) => {
      result.tags.forEach((t, i) => {
        tags[from + i] = t;
      });
      for (const p of result.problems) problems.add(p);
    };
    const parseRange = async ([from, to]: readonly [number, number]) =>
      keep(from, await parseHere(jobs.slice(from, to), signal));
    const onThisThread = async () => {
      for (let range = take(); range !== null; range = take()) await parseRange(range);
    };
    const onHelper = async (slot: number) => {
      for (let range = take(); range !== null; range = take()) {
        signal?.throwIfAborted();
        const [from, to] = range;
        const helper = helpers[slot] as Helper;
        const sent = sendBatch(helper, jobs.slice(from, to));
        const answer = await sent.answer;
        if (!(answer instanceof Error)) {
          const tags = answer.tags.map((t, i) => (sent.unread[i] ? null : t));
          keep(from, { tags, problems: answer.problems });
        } else if (answer instanceof NoAnswer) {
          // Its files may be what hangs a parser: they are not parsed again, here or there.
          problems.add(
            `a repo map parser thread stopped (${answer.message}); its files are left out of the map`,
          );
          this.replace(helpers, slot, helper);
        } else {
          problems.add(
            `a repo map parser thread failed (this thread parsed its files): ${answer.message}`,
          );
          this.replace(helpers, slot, helper);
          await parseRange(range);
        }
      }
    };
    const feeds = helpers.flatMap((_, slot) => Array.from({ length: IN_FLIGHT }, () => slot));
    await Promise.all([...(here ? [onThisThread()] : []), ...feeds.map(onHelper)]);
    return { tags, problems: [...problems] };
  };

  private start(): Helper[] {
    this.started ??= Array.from({ length: this.helpers }, () => this.newHelper());
    return this.started;
  }

  private newHelper(): Helper {
    return new Helper(
      new Worker(this.script, { workerData: { role: "parser" }, ...PARSER_OPTIONS }),
      this.batchDeadlineMs,
    );
  }

  /**
   * A thread that ran out of memory (a batch too large for its capped heap) or failed after
   * answering gives its slot to a new thread for the later batches; one that failed before
   * answering anything (it cannot start) keeps it, and its batches are parsed on this thread.
   */
  private replace(helpers: Helper[], slot: number, failed: Helper): void {
    if (helpers[slot] !== failed || !failed.worthReplacing) return;
    helpers[slot] = this.newHelper();
    void failed.close();
  }

  /** Stops the helper threads (the next parse starts new ones). */
  async close(): Promise<void> {
    const started = this.started ?? [];
    this.started = null;
    await Promise.all(started.map((h) => h.close()));
  }
}
