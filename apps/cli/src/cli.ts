#!/usr/bin/env node
// The `zeng` entry (bundled into dist/main.js by scripts/bundle.mjs). Only the argument
// parser and the headless loader (src/headless-start.ts: small, node's modules only) load up
// front; each command imports what it needs when it runs (design.md §2).
import { readFileSync } from "node:fs";
import { type Command, parseArgs } from "./args.js";
import { EXIT } from "./exit-codes.js";
import { startHeadless } from "./headless-start.js";
import type { Io } from "./output/result.js";
import { USAGE } from "./usage.js";

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
function stdout(): NodeJS.WriteStream {
  if (!stdoutGuarded) {
    stdoutGuarded = true;
    process.stdout.on("error", onStdoutError);
  }
  return process.stdout;
}

const io: Io = {
  stdout: (text) => void stdout().write(text),
  stderr: (text) => void process.stderr.write(text),
};

function version(): string {
  const url = new URL("../package.json", import.meta.url);
  return (JSON.parse(readFileSync(url, "utf8")) as { version: string }).version;
}

async function dispatch(command: Command): Promise<number> {
  switch (command.kind) {
    case "usage":
      io.stdout(USAGE);
      return EXIT.ok;
    case "version":
      io.stdout(`zeng ${version()}\n`);
      return EXIT.ok;
    case "headless": {
      return startHeadless(command.args, io, process.env);
    }
    case "interactive": {
      stdout(); // the screen writes to process.stdout itself
      const { runInteractive } = await import("./tui/run.js");
      return runInteractive(command.args, io, process.env);
    }
    case "trust": {
      const { runTrust } = await import("./trust.js");
      return runTrust(command.dir, io, process.env);
    }
    case "mcpList": {
      const { runMcpList } = await import("./mcp-list.js");
      return runMcpList(command.cwd, io, process.env);
    }
    case "demo": {
      const { runDemo } = await import("./demo.js");
      return runDemo(io, process.env);
    }
  }
}

/** Exits once stdout and stderr have taken everything written (pipes may be asynchronous). */
function exitAfterFlush(code: number): void {
  process.exitCode = code;
  stdout().write("", () => process.stderr.write("", () => process.exit(code)));
}

const parsed = parseArgs(process.argv.slice(2));
if (!parsed.ok) {
  io.stderr(`zeng: ${parsed.error} (see zeng --help)\n`);
  exitAfterFlush(EXIT.usage);
} else {
  dispatch(parsed.command).then(exitAfterFlush, (error: unknown) => {
    io.stderr(`zeng: internal error: ${(error as Error)?.stack ?? String(error)}\n`);
    exitAfterFlush(EXIT.failed);
  });
}
