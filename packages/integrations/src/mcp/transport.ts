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
  cwd: string,
): Promise<OpenedTransport> {
  const missing: string[] = [];
  const command = expandVars(spec.command ?? "", env);
  missing.push(...command.missing);
  const args = expandList(spec.args, env, missing);
  const own = expandMap(spec.env, env, missing) ?? {};
  if (missing.length > 0) throw missingError(missing);
  const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
  const base: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) base[k] = v;
  const transport = new StdioClientTransport({
    command: command.text,
    args,
    env: { ...base, ...own },
    cwd,
    stderr: "pipe",
  });
  let tail = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    tail = (tail + chunk.toString("utf8")).slice(-2000);
  });
  return {
    transport,
    pid: () => transport.pid,
    stderrTail: () => tail.trim().split("\n").slice(-5).join("\n"),
  };
}

/**
 * Builds the SDK transport for a stdio spec, expanding `${VAR}` and `${VAR:-default}` in the
 * command, args and env from `env`. The child gets `env` plus its own variables, and runs in
 * `cwd`. Rejects with {@link McpConfigError} for an unset variable; loads the SDK's transport
 * module only here (lazily). Remote specs: `remote-transport.ts`.
 */
export function openTransport(
  spec: McpServerSpec,
  env: ExpandEnv,
  cwd: string,
): Promise<OpenedTransport> {
  return stdioTransport(spec, env, cwd);
}
