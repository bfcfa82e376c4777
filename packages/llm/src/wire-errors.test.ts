import type { ModelErrorKind } from "@z-engine/protocol";
import {
  type FakeProvider,
  part,
  reply,
  type ScriptReply,
  startFakeProvider,
} from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { createWireClient } from "./create-client.js";
import { detectProvider, type ProviderKind } from "./provider.js";
import { collect, request } from "./test-support/helpers.js";

let server: FakeProvider | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function clientFor(kind: ProviderKind, s: FakeProvider, idleTimeoutMs?: number) {
  const detected = detectProvider({
    kind,
    baseUrl: kind === "anthropic" ? s.anthropicBaseUrl : s.openaiBaseUrl,
  });
  if (!detected.ok) throw new Error(detected.message);
  return createWireClient(detected.endpoint, {
    apiKey: "k",
    ...(idleTimeoutMs ? { idleTimeoutMs } : {}),
  });
}

const CASES: Array<[string, ScriptReply, ModelErrorKind, Record<string, unknown>]> = [
  ["HTTP 529", reply.fault({ status: 529 }), "overloaded", { status: 529 }],
  [
    "HTTP 429 with retry-after",
    reply.fault({ status: 429, retryAfter: 2 }),
    "rateLimit",
    { status: 429, retryAfterMs: 2000 },
  ],
  [
    "HTTP 503 with retry-after-ms",
    reply.fault({ status: 503, retryAfterMs: 1500 }),
    "overloaded",
    { retryAfterMs: 1500 },
  ],
  ["HTTP 500", reply.fault({ status: 500 }), "server", { status: 500 }],
  ["HTTP 401", reply.fault({ status: 401 }), "authentication", { status: 401 }],
  ["context overflow", reply.error("contextOverflow"), "contextOverflow", { status: 400 }],
  ["bad request", reply.error("invalidRequest", "bad field"), "invalidRequest", { status: 400 }],
  ["drop before the first byte", reply.fault({ drop: "beforeFirstByte" }), "network", {}],
  ["drop after the first byte", reply.fault({ drop: "afterFirstByte" }), "network", {}],
  ["malformed SSE", reply.fault({ malformed: true }), "server", {}],
  ["a stall", reply.fault({ stall: true }), "timeout", {}],
];

describe.each(["anthropic", "openai"] as const)("%s errors", (kind) => {
  it.each(CASES)("classifies %s", async (_name, response, expected, fields) => {
    const events0 = response.fault ? part.text("never shown") : response.events;
    server = await startFakeProvider({ script: [{ ...response, events: events0 }] });
    const events = await collect(
      clientFor(kind, server, expected === "timeout" ? 150 : undefined).stream(request()),
    );
    const terminal = events.at(-1);
    expect(terminal).toMatchObject({ type: "error", error: { kind: expected, ...fields } });
    expect(events.filter((e) => e.type === "error" || e.type === "stop")).toHaveLength(1);
    expect(events.some((e) => e.type === "textDelta")).toBe(false);
  });

  it("refuses a redirect, so the key never reaches the other host", async () => {
    const other = await startFakeProvider({ script: [reply.text("stolen")] });
    server = await startFakeProvider({
      script: [reply.fault({ redirect: `${other.url}/v1/messages` })],
    });
    const events = await collect(clientFor(kind, server).stream(request()));
    expect(events.at(-1)).toMatchObject({
      type: "error",
      error: { kind: "invalidRequest", status: 307 },
    });
    expect(other.requests).toHaveLength(0);
    await other.close();
  });
});

describe.each(["anthropic", "openai"] as const)("%s cancellation", (kind) => {
  it("an aborted signal ends the stream with cancelled and closes the connection", async () => {
    server = await startFakeProvider({
      script: [{ ...reply.text("a b c d e f"), delayMs: 30 }],
      wire: { textChunkChars: 2 },
    });
    const abort = new AbortController();
    const seen: string[] = [];
    for await (const event of clientFor(kind, server).stream(request(), { signal: abort.signal })) {
      seen.push(event.type);
      if (event.type === "textDelta") abort.abort();
    }
    expect(seen.slice(-2)).toEqual(["textDelta", "error"]);
    await server.responseClosed(0);
    expect(server.remaining).toBe(0);
  });

  it("a consumer that stops iterating closes the connection", async () => {
    server = await startFakeProvider({
      script: [{ ...reply.text("a b c d e f"), delayMs: 30 }],
      wire: { textChunkChars: 2 },
    });
    for await (const event of clientFor(kind, server).stream(request())) {
      if (event.type === "textDelta") break;
    }
    await server.responseClosed(0);
  });

  it("a stalled stream closes when the signal aborts, and an already aborted one sends nothing", async () => {
    server = await startFakeProvider({ script: [reply.fault({ stall: true })] });
    const abort = new AbortController();
    const done = collect(clientFor(kind, server).stream(request(), { signal: abort.signal }));
    await server.requestArrived(0);
    abort.abort();
    expect((await done).at(-1)).toEqual({
      type: "error",
      error: { kind: "cancelled", message: "the request was cancelled" },
    });
    await server.responseClosed(0);
    const again = await collect(
      clientFor(kind, server).stream(request(), { signal: abort.signal }),
    );
    expect(again).toEqual([
      { type: "error", error: { kind: "cancelled", message: "the request was cancelled" } },
    ]);
    expect(server.requests).toHaveLength(1);
  });
});
