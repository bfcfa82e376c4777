/** The settings of an MCP connection and the helpers it uses that hold no state of it. */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { ChildSpawner } from "../child-spawner.js";
import type { ExpandEnv } from "./expand.js";
import type { McpAuthOptions } from "./open-client.js";
import { failureText } from "./failure-text.js";
import { listAll, toTool } from "./sdk.js";
import type { McpClientHooks, McpServerSpec, McpToolInfo } from "./types.js";

/** Start (connect and first tool list) allowed when the spec sets no timeout. */
export const DEFAULT_START_TIMEOUT_MS = 30_000;
/** A call allowed when the spec sets no timeout (progress notifications restart the clock). */
export const DEFAULT_CALL_TIMEOUT_MS = 120_000;
/** How long a call waits in silence before its `onWaiting` is told (then again as often). */
export const WAIT_NOTICE_MS = 15_000;
/** The longest server instructions kept (the model reads them on every request). */
export const MAX_INSTRUCTIONS_LENGTH = 4000;
/** How long closing waits for the DELETE that ends a streamable HTTP session. */
export const TERMINATE_WAIT_MS = 2000;

/** What an {@link McpConnection} is built from. */
export interface McpConnectionOptions {
  readonly spec: McpServerSpec;
  /** For `${VAR}` expansion (never `process.env` implicitly). */
  readonly env: ExpandEnv;
  /** Starts a stdio server (its folder and scrubbed environment are the spawner's). */
  readonly spawn: ChildSpawner;
  /** Called after each change of state or of the tool list. Must not throw. */
  readonly onChange?: () => void;
  readonly clock?: () => number;
  /** How often a silent call reports through `onWaiting` (default: a quarter of its limit, at most {@link WAIT_NOTICE_MS}). */
  readonly waitNoticeMs?: number;
  /** Elicitation, roots and sampling as the client answers them (each one advertised). */
  readonly hooks?: McpClientHooks;
  /** OAuth for remote servers: the token store, and a login when a person is at hand. */
  readonly auth?: McpAuthOptions;
}

/** Every tool a server lists (all pages). */
export async function listServerTools(client: Client, timeout: number): Promise<McpToolInfo[]> {
  const tools = await listAll((cursor) =>
    client
      .listTools(cursor ? { cursor } : {}, { timeout })
      .then((r) => ({ items: r.tools, next: r.nextCursor })),
  );
  return tools.map(toTool);
}

/**
 * The hooks, with elicitations counted (`asking(+1)` and `asking(-1)` around each): while the
 * user answers, a call's silence is not the server's.
 */
export function countedHooks(
  hooks: McpClientHooks,
  asking: (delta: number) => void,
): McpClientHooks {
  const onElicit = hooks.onElicit;
  if (!onElicit) return hooks;
  return {
    ...hooks,
    onElicit: async (request, signal) => {
      asking(1);
      try {
        return await onElicit(request, signal);
      } finally {
        asking(-1);
      }
    },
  };
}

export /** Waits for `task` at most `ms`; its failure is ignored. */
async function withinMs(task: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    task.catch(() => {}),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
      timer.unref();
    }),
  ]);
  clearTimeout(timer);
}

/** Why a server failed, with its last stderr lines when the message does not hold them. */
export function failureReason(error: unknown, spec: McpServerSpec, stderrTail: string): string {
  const own = Object.keys(spec.headers ?? {}).some((k) => k.toLowerCase() === "authorization");
  const message = failureText(error, spec.name, own);
  return stderrTail && !message.includes(stderrTail)
    ? `${message} (stderr: ${stderrTail})`
    : message;
}
