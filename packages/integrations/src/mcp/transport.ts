import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { ChildSpawner } from "../child-spawner.js";
import { type ExpandEnv, expandMap, expandVars } from "./expand.js";
import type { McpServerSpec } from "./types.js";

/** A transport ready to connect, and what the caller may read of it. */
export interface OpenedTransport {
  readonly transport: Transport;
  /** The child's process id (stdio only, once started). */
  readonly pid: () => number | null;
  /** The last lines the child wrote to stderr (stdio only), for a failure's reason. */
  readonly stderrTail: () => string;
}

/** Why a spec cannot start: the message for the notice. */
export class McpConfigError extends Error {}

function expandList(list: readonly string[] | undefined, env: ExpandEnv, missing: string[]) {
  return (list ?? []).map((item) => {
    const expanded = expandVars(item, env);
    missing.push(...expanded.missing);
    return expanded.text;
  });
}

function missingError(missing: readonly string[]): McpConfigError {
  const names = [...new Set(missing)].join(", ");
  return new McpConfigError(`unset environment variable${missing.length > 1 ? "s" : ""} ${names}`);
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

async function remoteTransport(spec: McpServerSpec, env: ExpandEnv): Promise<OpenedTransport> {
  const missing: string[] = [];
  const url = expandVars(spec.url ?? "", env);
  missing.push(...url.missing);
  const headers = expandMap(spec.headers, env, missing);
  if (missing.length > 0) throw missingError(missing);
  let parsed: URL;
  try {
    parsed = new URL(url.text);
  } catch {
    throw new McpConfigError(`not a valid URL: ${url.text}`);
  }
  const requestInit: RequestInit = headers ? { headers } : {};
  if (spec.type === "sse") {
    const { SSEClientTransport } = await import("@modelcontextprotocol/sdk/client/sse.js");
    const transport = new SSEClientTransport(parsed, {
      requestInit,
      ...(headers
        ? {
            eventSourceInit: {
              fetch: (input, init) =>
                fetch(input, { ...init, headers: { ...(init?.headers ?? {}), ...headers } }),
            },
          }
        : {}),
    });
    return { transport, pid: () => null, stderrTail: () => "" };
  }
  const { StreamableHTTPClientTransport } = await import(
    "@modelcontextprotocol/sdk/client/streamableHttp.js"
  );
  const transport = new StreamableHTTPClientTransport(parsed, { requestInit });
  return { transport, pid: () => null, stderrTail: () => "" };
}

/**
 * Builds the SDK transport for a spec, expanding `${VAR}` and `${VAR:-default}` in the
 * command, args, env, url and headers from `env`. A stdio child is started by `spawn` (the
 * caller's: its folder and scrubbed environment) with its own variables over it, in a
 * process group of its own. Rejects with {@link McpConfigError} for an unset variable or a
 * bad URL; loads the transport modules only here (lazily).
 */
export function openTransport(
  spec: McpServerSpec,
  env: ExpandEnv,
  spawn: ChildSpawner,
): Promise<OpenedTransport> {
  return spec.type === "stdio" ? stdioTransport(spec, env, spawn) : remoteTransport(spec, env);
}
