// The doors' dispatch: `zeng acp [login]` and `zeng mcp serve`, each loaded when it runs.
import type { Env } from "@z-engine/config";
import { DOOR_USAGE, parseDoor } from "./doors-args.js";
import { takeEnvironment } from "./environment.js";
import { EXIT } from "./exit-codes.js";
import type { Io } from "./output/result.js";

/**
 * Runs a door command line (`isDoor(argv)` held) and resolves with its exit code: 2 with one
 * line on stderr for bad usage. The provider keys leave `process.env` (the engine keeps them).
 */
export async function runDoor(
  argv: readonly string[],
  io: Io,
  source: Record<string, string | undefined>,
  version: string,
): Promise<number> {
  const parsed = parseDoor(argv);
  if (!parsed.ok) {
    io.stderr(`zeng: ${parsed.error} (see zeng --help)\n`);
    return EXIT.usage;
  }
  const { command } = parsed;
  if (command.kind === "help") {
    io.stderr(DOOR_USAGE);
    return EXIT.ok;
  }
  const env: Env = takeEnvironment(source);
  switch (command.kind) {
    case "acp": {
      const { runAcp } = await import("./acp-command.js");
      return runAcp(command.args, io, env, version);
    }
    case "acpLogin": {
      const { runAcpLogin } = await import("./acp-command.js");
      return runAcpLogin(command.cwd, io, env);
    }
    case "mcpServe": {
      const { runMcpServe } = await import("./mcp-serve.js");
      return runMcpServe(command.args, io, env, version);
    }
  }
}
