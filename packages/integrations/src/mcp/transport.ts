import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
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
 * command, args, env, url and headers from `env`. A stdio child gets `env` plus its own
 * variables, and runs in `cwd`. Rejects with {@link McpConfigError} for an unset variable or
 * a bad URL; loads the SDK's transport module only here (lazily).
 */
export function openTransport(
  spec: McpServerSpec,
  env: ExpandEnv,
  cwd: string,
): Promise<OpenedTransport> {
  return spec.type === "stdio" ? stdioTransport(spec, env, cwd) : remoteTransport(spec, env);
}
