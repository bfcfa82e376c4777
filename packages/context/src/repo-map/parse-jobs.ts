import { type LoadedLanguage, loadLanguage, type MapLanguage } from "./languages.js";
import { extractTags, type FileTags } from "./tags.js";

/**
 * One file to parse: its language and text, or a function that reads the text when the
 * job's turn comes (null: the file is not parsed, and its tags are null). Reading late keeps
 * a text alive only while its file is parsed, so texts die young instead of filling the old
 * generation while a chunk of files is parsed.
 */
export interface ParseJob {
  readonly language: MapLanguage;
  readonly text: string | (() => string | null);
}

/** A job's text, read now if it is read late (null: not to be parsed). */
export function jobText(job: ParseJob): string | null {
  return typeof job.text === "string" ? job.text : job.text();
}

/** The tags of each job, in order (null where its grammar did not load), and the problems. */
export interface ParseResult {
  readonly tags: ReadonlyArray<FileTags | null>;
  readonly problems: readonly string[];
}

/**
 * Parses files into tags: on this thread ({@link parseHere}) or spread over worker threads.
 * Rejects only with the signal's reason when aborted.
 */
export type TagParser = (jobs: readonly ParseJob[], signal?: AbortSignal) => Promise<ParseResult>;

const yieldNow = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Parses `jobs` on this thread, loading each grammar once (a grammar that does not load gives
 * null tags and one problem). Yields to the event loop once a slice has run `sliceMs`, so
 * the longest stretch is one file's parse. Rejects only with the signal's reason.
 */
export async function parseHere(
  jobs: readonly ParseJob[],
  signal?: AbortSignal,
  sliceMs = 8,
): Promise<ParseResult> {
  const grammars = new Map<MapLanguage, LoadedLanguage | null>();
  const problems: string[] = [];
  const tags: Array<FileTags | null> = [];
  let sliceStart = performance.now();
  for (const job of jobs) {
    if (performance.now() - sliceStart > sliceMs) {
      await yieldNow();
      signal?.throwIfAborted();
      sliceStart = performance.now();
    }
    let grammar = grammars.get(job.language);
    if (grammar === undefined) {
      grammar = await loadLanguage(job.language).catch((error: Error) => {
        problems.push(`${error.message}: ${String((error.cause as Error | undefined)?.message)}`);
        return null;
      });
      grammars.set(job.language, grammar);
    }
    const text = grammar ? jobText(job) : null;
    tags.push(grammar && text !== null ? extractTags(text, grammar) : null);
  }
  return { tags, problems };
}
