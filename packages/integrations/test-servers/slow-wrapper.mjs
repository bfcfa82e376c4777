#!/usr/bin/env node
// A language server made slow, for tests: runs the real server given as arguments and holds
// back, by SLOW_DIAGNOSTICS_MS, every diagnostics message it sends (pushed diagnostics and
// the answers to pull or tsserver diagnostic requests). Everything else passes straight.
// With OPEN_PROGRESS_TOKEN set, it also opens a progress token that never ends (indexing).
import { spawn } from "node:child_process";

const delay = Number(process.env.SLOW_DIAGNOSTICS_MS ?? "10000");
const [command, ...args] = process.argv.slice(2);
const server = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
server.on("exit", (code) => process.exit(code ?? 1));
const slowIds = new Set();

/** Splits a byte stream into LSP frames and hands each parsed message on. */
function frames(onMessage) {
  let buffer = Buffer.alloc(0);
  return (chunk) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      const end = buffer.indexOf("\r\n\r\n");
      if (end < 0) return;
      const length = Number(/Content-Length: (\d+)/i.exec(buffer.subarray(0, end).toString())?.[1]);
      if (buffer.length < end + 4 + length) return;
      const frame = buffer.subarray(0, end + 4 + length);
      onMessage(JSON.parse(frame.subarray(end + 4).toString("utf8")), frame);
      buffer = buffer.subarray(end + 4 + length);
    }
  };
}

function send(message) {
  const body = Buffer.from(JSON.stringify(message), "utf8");
  process.stdout.write(`Content-Length: ${body.length}\r\n\r\n`);
  process.stdout.write(body);
}

function progressBegin() {
  const token = process.env.OPEN_PROGRESS_TOKEN;
  return {
    jsonrpc: "2.0",
    method: "$/progress",
    params: { token, value: { kind: "begin", title: "Indexing" } },
  };
}

const DIAGNOSTIC_REQUESTS = new Set(["textDocument/diagnostic", "workspace/executeCommand"]);
process.stdin.on(
  "data",
  frames((message, frame) => {
    if (DIAGNOSTIC_REQUESTS.has(message.method)) slowIds.add(message.id);
    server.stdin.write(frame);
  }),
);
server.stdout.on(
  "data",
  frames((message, frame) => {
    const slow =
      message.method === "textDocument/publishDiagnostics" ||
      (message.method === undefined && slowIds.has(message.id));
    if (slow) setTimeout(() => process.stdout.write(frame), delay);
    else process.stdout.write(frame);
    // With OPEN_PROGRESS_TOKEN set, the server reports indexing that never ends.
    if (process.env.OPEN_PROGRESS_TOKEN && message.result?.capabilities) send(progressBegin());
  }),
);
