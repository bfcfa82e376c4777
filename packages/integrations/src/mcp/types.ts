import type { ToolResultContent } from "@z-engine/protocol";

/** How a server is reached: a program over stdio, streamable HTTP, or the legacy SSE transport. */
export type McpTransportKind = "stdio" | "http" | "sse";

/**
 * One server as the engine hands it over (already merged from the settings layers). Values
 * may hold `${VAR}` / `${VAR:-default}`; they are expanded when the server starts.
 */
export interface McpServerSpec {
  readonly name: string;
  readonly type: McpTransportKind;
  readonly command?: string;
  readonly args?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  readonly url?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** Milliseconds allowed for the start (connect and first tool list) and for each call. */
  readonly timeoutMs?: number;
}

/** Where a server is in its life. */
export type McpServerState = "starting" | "ready" | "failed" | "disconnected" | "stopped";

/** One tool a server offers, as it listed it. */
export interface McpToolInfo {
  readonly name: string;
  readonly description: string;
  /** The JSON Schema of its input, as the server sent it. */
  readonly inputSchema: Record<string, unknown>;
}

/** One resource a server exposes. */
export interface McpResourceInfo {
  readonly uri: string;
  readonly name: string;
  readonly description?: string;
  readonly mimeType?: string;
}

/** One prompt a server offers, with its arguments. */
export interface McpPromptInfo {
  readonly name: string;
  readonly description?: string;
  readonly arguments: readonly {
    readonly name: string;
    readonly description?: string;
    readonly required: boolean;
  }[];
}

/** A tool call's result, converted to content blocks the model reads. */
export interface McpCallResult {
  readonly content: readonly ToolResultContent[];
  readonly isError: boolean;
}

/** What a call may be told while it runs. */
export interface McpCallOptions {
  readonly signal: AbortSignal;
  /** A progress notification of the server, as one line of text. */
  readonly onProgress?: (text: string) => void;
  /**
   * The server has sent nothing about this call for `silentMs` (reported every
   * `WAIT_NOTICE_MS`); it gives up at `limitMs` of silence. Must not throw.
   */
  readonly onWaiting?: (silentMs: number, limitMs: number) => void;
}

/** An operational failure talking to a server; `code` says which kind. */
export class McpError extends Error {
  constructor(
    readonly code: "notReady" | "connectionLost" | "timeout" | "cancelled" | "protocol",
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "McpError";
  }
}
