import { Readable, Writable } from "node:stream";
import { type AgentConnection, ndJsonStream } from "@agentclientprotocol/sdk";
import { createAcpAgent } from "./agent.js";
import type { AcpAgentOptions } from "./options.js";

/** Where {@link serveAcpStdio} reads and writes (default: the process's stdin and stdout). */
export interface AcpStdio {
  readonly input?: NodeJS.ReadableStream & Readable;
  readonly output?: NodeJS.WritableStream & Writable;
}

/**
 * Serves the engine as an ACP agent over newline-delimited JSON-RPC on stdio (how editors
 * start agents): one connection, closed when the input ends. Nothing else may write to the
 * output. Resolves with the connection (`closed` settles when it ends).
 */
export function serveAcpStdio(options: AcpAgentOptions, stdio: AcpStdio = {}): AgentConnection {
  const input = stdio.input ?? process.stdin;
  const output = stdio.output ?? process.stdout;
  const stream = ndJsonStream(
    Writable.toWeb(output) as WritableStream<Uint8Array>,
    Readable.toWeb(input) as ReadableStream<Uint8Array>,
  );
  return createAcpAgent(options).connect(stream);
}
