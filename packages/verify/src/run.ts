import { join } from "node:path";
import {
  type ArtifactRef,
  type ArtifactSink,
  type CheckDefinition,
  type CheckRecord,
  newCheckRunId,
} from "@z-engine/protocol";
import { VerifyError } from "./errors.js";
import { parseTestCounts } from "./parse/counts.js";
import type { TestCountParser } from "./parse/parser.js";
import { describe } from "./discovery/walk.js";

/** What the runner is asked to run: one shell command in an absolute folder. */
export interface CheckRunRequest {
  readonly command: string;
  readonly cwd: string;
  readonly signal?: AbortSignal | undefined;
}

/** How a run ended. `exitCode` is null when the process was killed (timeout, cancel). */
export interface CheckRunResult {
  readonly exitCode: number | null;
  /** stdout and stderr, interleaved as they came. */
  readonly output: string;
  readonly timedOut?: boolean;
}

/**
 * Runs a command (the engine passes one built on host's processes and the sandbox). It
 * resolves when the process ends, however it ends; a rejection means the command could
 * not be started at all.
 */
export type CheckRunner = (request: CheckRunRequest) => Promise<CheckRunResult>;

export interface RunCheckOptions {
  /** Absolute project root; the check's `cwd` is relative to it. */
  readonly projectRoot: string;
  readonly runner: CheckRunner;
  /** The workspace fingerprint now (host's, leaving out `.z-engine/`). */
  readonly fingerprint: () => Promise<string>;
  readonly artifacts: ArtifactSink;
  /** Milliseconds since the epoch; defaults to `Date.now`. */
  readonly clock?: () => number;
  readonly signal?: AbortSignal;
  /** Characters of the output's end kept inline (default 4,000). */
  readonly tailChars?: number;
  /** Parsers for the test counts (default: the built-ins). */
  readonly parsers?: readonly TestCountParser[];
}

/** The default number of output characters a record keeps inline. */
export const DEFAULT_TAIL_CHARS = 4000;

/**
 * The end of an output: at most `max` characters, starting at a line when one starts
 * within the last `max`, with a first line saying how much came before.
 */
export function outputTail(output: string, max = DEFAULT_TAIL_CHARS): string {
  if (output.length <= max) return output;
  let tail = output.slice(output.length - max);
  const newline = tail.indexOf("\n");
  if (newline !== -1 && newline < tail.length - 1) tail = tail.slice(newline + 1);
  return `[... ${output.length - tail.length} earlier characters in the full output]\n${tail}`;
}

function artifactName(check: CheckDefinition): string {
  return `check-${check.id.replace(/[^A-Za-z0-9._-]+/g, "_")}.log`;
}

/**
 * Runs one check through the injected runner and returns its evidence: command, exit code,
 * pass or fail, test counts (for test checks), duration, the output's end inline and all
 * of it in the artifact sink, and the fingerprints right before and right after.
 *
 * A check passes when it exits 0 and no test failed by its counts. A runner that rejects
 * (the command could not start) gives a failed record whose output is the reason; an
 * artifact sink that rejects leaves `output` null (the tail is still inline). Rejects
 * with `VerifyError` `aborted` when `signal` is already aborted (nothing runs), and
 * `fingerprintFailed` when a fingerprint cannot be taken. Cancelling mid-run is the
 * runner's to honour; its killed result is recorded with a null exit code.
 */
export async function runCheck(
  check: CheckDefinition,
  options: RunCheckOptions,
): Promise<CheckRecord> {
  const clock = options.clock ?? Date.now;
  if (options.signal?.aborted)
    throw new VerifyError("aborted", `${check.id} was not run: cancelled`, options.signal.reason);
  const fingerprintBefore = await takeFingerprint(options, check);
  const startedAt = clock();
  const result = await runSafely(check, options);
  const durationMs = Math.max(0, clock() - startedAt);
  const fingerprintAfter = await takeFingerprint(options, check);
  const counts =
    check.kind === "test"
      ? parseTestCounts(result.output, { command: check.command, ...parsersOf(options) })
      : null;
  const output = await storeOutput(options.artifacts, artifactName(check), result.output);
  return {
    runId: newCheckRunId(),
    checkId: check.id,
    kind: check.kind,
    command: check.command,
    cwd: check.cwd,
    exitCode: result.exitCode,
    passed: result.exitCode === 0 && !result.timedOut && (counts === null || counts.failed === 0),
    counts,
    startedAt,
    durationMs,
    outputTail: outputTail(result.output, options.tailChars ?? DEFAULT_TAIL_CHARS),
    output,
    fingerprintBefore,
    fingerprintAfter,
  };
}

const parsersOf = (options: RunCheckOptions) =>
  options.parsers === undefined ? {} : { parsers: options.parsers };

async function runSafely(
  check: CheckDefinition,
  options: RunCheckOptions,
): Promise<CheckRunResult> {
  try {
    const result = await options.runner({
      command: check.command,
      cwd: check.cwd === "." ? options.projectRoot : join(options.projectRoot, check.cwd),
      signal: options.signal,
    });
    const timedOut = result.timedOut === true;
    const note = timedOut ? "\n[check timed out]" : "";
    return { exitCode: result.exitCode, output: result.output + note, timedOut };
  } catch (error) {
    return { exitCode: null, output: `[check could not start: ${describe(error)}]` };
  }
}

async function takeFingerprint(options: RunCheckOptions, check: CheckDefinition): Promise<string> {
  try {
    return await options.fingerprint();
  } catch (error) {
    throw new VerifyError(
      "fingerprintFailed",
      `cannot fingerprint the workspace for ${check.id}`,
      error,
    );
  }
}

async function storeOutput(
  sink: ArtifactSink,
  name: string,
  output: string,
): Promise<ArtifactRef | null> {
  try {
    return await sink.put(name, output, { mediaType: "text/plain" });
  } catch {
    return null;
  }
}
