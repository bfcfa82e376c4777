import type { ChildSpawner } from "../child-spawner.js";
import { type ExpandEnv, expandMap, expandVars } from "./expand.js";
import { missingError, type OpenedTransport } from "./opened-transport.js";
import type { McpServerSpec } from "./types.js";

function expandList(list: readonly string[] | undefined, env: ExpandEnv, missing: string[]) {
  return (list ?? []).map((item) => {
    const expanded = expandVars(item, env);
    missing.push(...expanded.missing);
    return expanded.text;
  });
}

async function stdioTransport(
  spec: McpServerSpec,
  env: ExpandEnv,
  spawn: ChildSpawner,
): Promise<OpenedTransport> {
  const missing: string[] = [];
  const command = expandVars(spec.command ?? "", env);
  missing.push(...command.missing);
  const args = expandList(spec.args, env, missing);
  const own = expandMap(spec.env, env, missing) ?? {};
  if (missing.length > 0) throw missingError(missing);
  const [{ ChildStdioTransport }, stdio] = await Promise.all([
    import("./stdio-child.js"),
    import("@modelcontextprotocol/sdk/shared/stdio.js"),
  ]);
  let tail = "";
  // The spawner starts the child from the scrubbed environment, in the folder it chose, in
  // a process group of its own; `own` (the entry's `env`) is set over it.
  const transport = new ChildStdioTransport(
    spawn,
    { program: command.text, args, env: own },
    (chunk) => {
      tail = (tail + chunk.toString("utf8")).slice(-2000);
    },
    stdio,
  );
  return {
    transport,
    pid: () => transport.pid,
    stderrTail: () => tail.trim().split("\n").slice(-5).join("\n"),
  };
}

/**
 * Builds the SDK transport for a stdio spec, expanding `${VAR}` and `${VAR:-default}` in the
 * command, args and env from `env`. The child is started by `spawn` (the caller's: its
 * folder and scrubbed environment) with its own variables over it, in a process group of its
 * own. Rejects with {@link McpConfigError} for an unset variable; loads the SDK's transport
 * module only here (lazily). Remote specs: `remote-transport.ts`.
 */
export function openTransport(
  spec: McpServerSpec,
  env: ExpandEnv,
  spawn: ChildSpawner,
): Promise<OpenedTransport> {
  return stdioTransport(spec, env, spawn);
}
