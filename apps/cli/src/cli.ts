#!/usr/bin/env node
// The `zeng` entry (bundled into dist/main.js by scripts/bundle.mjs). Only the argument
// parser and the headless loader (src/headless-start.ts: small, node's modules only) load up
// front; each command imports what it needs when it runs (design.md §2).
import { readFileSync } from "node:fs";
import { type Command, parseArgs } from "./args.js";
import { isDoor } from "./doors-args.js";
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
      const [{ runMcpList }, { takeEnvironment }] = await Promise.all([
        import("./mcp-list.js"),
        import("./environment.js"),
      ]);
      // It starts the MCP servers: none of them may find a key in this process's environment.
      return runMcpList(command.cwd, io, takeEnvironment(process.env));
    }
    case "login": {
      const [{ runLogin }, { takeEnvironment }] = await Promise.all([
        import("./sub/login.js"),
        import("./environment.js"),
      ]);
      return runLogin(command.argv, io, takeEnvironment(process.env), process.stdin);
    }
    case "web": {
      const [{ runWeb }, { takeEnvironment }] = await Promise.all([
        import("./sub/web.js"),
        import("./environment.js"),
      ]);
      return runWeb(command.argv, io, takeEnvironment(process.env));
    }
    case "doctor": {
      const [{ runDoctor }, { takeEnvironment }] = await Promise.all([
        import("./sub/doctor.js"),
        import("./environment.js"),
      ]);
      return runDoctor(command.argv, io, takeEnvironment(process.env));
    }
    case "config": {
      const { runConfig } = await import("./sub/config-cmd.js");
      return runConfig(command.argv, io, process.env);
    }
    case "mcpGet": {
      const { runMcpGet } = await import("./sub/mcp-get.js");
      return runMcpGet(command.argv, io, process.env);
    }
    case "mcpEdit": {
      const { runMcpEdit } = await import("./sub/mcp-edit.js");
      return runMcpEdit(command.argv, io, process.env);
    }
    case "mcpLogin":
    case "mcpLogout": {
      const { runMcpLogin } = await import("./mcp-login.js");
      return runMcpLogin(command, io, process.env);
    }
    case "demo": {
      const [{ runDemo }, { takeEnvironment }] = await Promise.all([
        import("./demo.js"),
        import("./environment.js"),
      ]);
      return runDemo(io, takeEnvironment(process.env));
    }
  }
}

const argv = process.argv.slice(2);
const parsed = isDoor(argv) ? undefined : parseArgs(argv);
if (!parsed) {
  // `zeng acp` and `zeng mcp serve` (their own parser: doors-args.ts).
  runToExit(async () => (await import("./doors.js")).runDoor(argv, io, process.env, version()));
} else if (!parsed.ok) {
  io.stderr(`zeng: ${parsed.error} (see zeng --help)\n`);
  exitAfterFlush(EXIT.usage);
} else {
  const { command } = parsed;
  runToExit(() => dispatch(command));
}
