import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";

/** A transport ready to connect, and what the caller may read of it. */
export interface OpenedTransport {
  readonly transport: Transport;
  /** The child's process id (stdio only, once started). */
  readonly pid: () => number | null;
  /** The last lines the child wrote to stderr (stdio only), for a failure's reason. */
  readonly stderrTail: () => string;
  /** Remote only: exchanges the code a login brought back for tokens (the SDK's `finishAuth`). */
  readonly finishAuth?: (code: string) => Promise<void>;
  /** Streamable HTTP only: the DELETE that ends the server's session, sent before closing. */
  readonly terminate?: () => Promise<void>;
}

/** Why a spec cannot start: the message for the notice. */
export class McpConfigError extends Error {}

/** The failure for `${VAR}`s that had no value nor default, naming them. */
export function missingError(missing: readonly string[]): McpConfigError {
  const names = [...new Set(missing)].join(", ");
  return new McpConfigError(`unset environment variable${missing.length > 1 ? "s" : ""} ${names}`);
}
