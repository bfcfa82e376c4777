// What both entries share (dist/main.js, the ES module CLI, and dist/zeng.cjs, the bin's
// CommonJS front): the output streams and how the process exits.
import { EXIT } from "./exit-codes.js";
import type { Io } from "./output/result.js";

/** A reader that goes away (`zeng -p ... | head`) is not an error of ours. */
function onStdoutError(error: NodeJS.ErrnoException): void {
  if (error.code === "EPIPE") process.exit(process.exitCode ?? EXIT.ok);
}

let stdoutGuarded = false;

/**
 * `process.stdout` with the EPIPE handler on it, made on first use: Node creates the stream
 * on first access (1.5-2 ms of CPU for a file, 3-4 ms for a pipe), and `zeng -p` writes
 * nothing before its first request in the json and text formats (text prints the answer as
 * it arrives, json at the end).
 */
export function stdout(): NodeJS.WriteStream {
  if (!stdoutGuarded) {
    stdoutGuarded = true;
    process.stdout.on("error", onStdoutError);
  }
  return process.stdout;
}

/** The CLI's output: stdout made on first write, stderr. */
export const io: Io = {
  stdout: (text) => void stdout().write(text),
  stderr: (text) => void process.stderr.write(text),
};

/** Exits once stdout and stderr have taken everything written (pipes may be asynchronous). */
export function exitAfterFlush(code: number): void {
  process.exitCode = code;
  stdout().write("", () => process.stderr.write("", () => process.exit(code)));
}

/**
 * Runs `command` and exits with its code once the output is flushed; an exception is an
 * internal error (exit 1, its stack on stderr).
 */
export function runToExit(command: () => Promise<number>): void {
  command().then(exitAfterFlush, (error: unknown) => {
    io.stderr(`zeng: internal error: ${(error as Error)?.stack ?? String(error)}\n`);
    exitAfterFlush(EXIT.failed);
  });
}
