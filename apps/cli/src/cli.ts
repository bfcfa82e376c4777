#!/usr/bin/env node
// The `zeng` entry (bundled into dist/main.js by scripts/bundle.mjs). Only the argument
// parser and the headless loader (src/headless-start.ts: small, node's modules only) load up
// front; each command imports what it needs when it runs (design.md §2).
import { readFileSync } from "node:fs";
import { type Command, parseArgs } from "./args.js";
import { exitAfterFlush, io, runToExit, stdout } from "./entry-io.js";
import { EXIT } from "./exit-codes.js";
import { startHeadless } from "./headless-start.js";
import { USAGE } from "./usage.js";

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
    case "mcpLogin":
    case "mcpLogout": {
      const { runMcpLogin } = await import("./mcp-login.js");
      return runMcpLogin(command, io, process.env);
    }
    case "demo": {
      const { runDemo } = await import("./demo.js");
      return runDemo(io, process.env);
    }
  }
}

const parsed = parseArgs(process.argv.slice(2));
if (!parsed.ok) {
  io.stderr(`zeng: ${parsed.error} (see zeng --help)\n`);
  exitAfterFlush(EXIT.usage);
} else {
  const { command } = parsed;
  runToExit(() => dispatch(command));
}
