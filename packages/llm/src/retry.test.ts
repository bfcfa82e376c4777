import {
  type FakeProvider,
  part,
  reply,
  ScriptedModel,
  startFakeProvider,
} from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { createModelClient, type LlmOptions } from "./create-client.js";
import type { ProviderKind } from "./provider.js";
import { FallbackClient } from "./fallback.js";
import { retryDelayMs, withRetry } from "./retry.js";
import { collect, fakeSleep, request } from "./test-support/helpers.js";

let server: FakeProvider | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const env = { ZENGINE_API_KEY: "sk-zen" };
function client(kind: ProviderKind, s: FakeProvider, options: Partial<LlmOptions> = {}) {
  const baseUrl = kind === "anthropic" ? s.anthropicBaseUrl : s.openaiBaseUrl;
  return createModelClient({ kind, baseUrl, ...options }, { env });
}

describe.each(["anthropic", "openai"] as const)("%s retries", (kind) => {
  it("retries temporary failures on the 0.5 s, 1 s, 2 s, 4 s schedule, announcing each wait", async () => {
    server = await startFakeProvider({
      script: [
        reply.fault({ status: 529 }),
        reply.fault({ status: 500 }),
        reply.fault({ drop: "beforeFirstByte" }),
        reply.fault({ status: 503 }),
        reply.text("finally"),
      ],
    });
    const { waits, sleep } = fakeSleep();
    const events = await collect(client(kind, server, { retry: { sleep } }).stream(request()));
    const retrying = events.filter((e) => e.type === "retrying");
    expect(retrying.map((e) => [e.attempt, e.maxAttempts, e.delayMs, e.error.kind])).toEqual([
      [1, 5, 500, "overloaded"],
      [2, 5, 1000, "server"],
      [3, 5, 2000, "network"],
      [4, 5, 4000, "overloaded"],
    ]);
    expect(waits).toEqual([500, 1000, 2000, 4000]);
    expect(events.filter((e) => e.type === "textDelta")).toEqual([
      { type: "textDelta", text: "finally" },
    ]);
    expect(events.at(-1)).toMatchObject({ type: "stop", reason: "endTurn" });
    expect(server.requests).toHaveLength(5);
    expect(new Set(server.requests.map((r) => r.apiKey))).toEqual(new Set(["sk-zen"]));
  });

  it("gives up after five attempts with the last error", async () => {
    server = await startFakeProvider({
      script: Array.from({ length: 6 }, () => reply.fault({ status: 529 })),
    });
    const { waits, sleep } = fakeSleep();
    const events = await collect(client(kind, server, { retry: { sleep } }).stream(request()));
    expect(waits).toHaveLength(4);
    expect(events.at(-1)).toMatchObject({
      type: "error",
      error: { kind: "overloaded", status: 529 },
    });
    expect(server.requests).toHaveLength(5);
  });

  it("waits what retry-after asks, at most 60 s", async () => {
    server = await startFakeProvider({
      script: [
        reply.fault({ status: 429, retryAfter: 2 }),
        reply.fault({ status: 429, retryAfter: 120 }),
        reply.text("ok"),
      ],
    });
    const { waits, sleep } = fakeSleep();
    await collect(client(kind, server, { retry: { sleep } }).stream(request()));
    expect(waits).toEqual([2000, 60_000]);
  });

  it("does not retry once text has streamed, nor errors that a retry cannot cure", async () => {
    server = await startFakeProvider({
      script: [
        reply.of(part.text("half an answer"), part.error("overloaded")),
        reply.fault({ status: 401 }),
        reply.text("unused"),
      ],
    });
    const { waits, sleep } = fakeSleep();
    const first = await collect(client(kind, server, { retry: { sleep } }).stream(request()));
    expect(first.map((e) => e.type).filter((t) => t !== "usage")).toEqual(["textDelta", "error"]);
    const second = await collect(client(kind, server, { retry: { sleep } }).stream(request()));
    expect(second).toEqual([
      { type: "error", error: expect.objectContaining({ kind: "authentication" }) },
    ]);
    expect(waits).toEqual([]);
    expect(server.requests).toHaveLength(2);
  });

  it("ends with cancelled when the signal aborts during a wait", async () => {
    server = await startFakeProvider({
      script: [reply.fault({ status: 529 }), reply.text("unused")],
    });
    const abort = new AbortController();
    const sleep = async () => abort.abort();
    const events = await collect(
      client(kind, server, { retry: { sleep } }).stream(request(), { signal: abort.signal }),
    );
    expect(events.map((e) => e.type)).toEqual(["retrying", "error"]);
    expect(events.at(-1)).toMatchObject({ error: { kind: "cancelled" } });
    expect(server.requests).toHaveLength(1);
  });
});

describe.each(["anthropic", "openai"] as const)("%s fallbacks", (kind) => {
  const byModel = (model: string) => (r: { model: string }) => r.model === model;

  it("tries the fallback models in order, same host and key, before any text", async () => {
    server = await startFakeProvider({
      script: [
        { ...reply.error("invalidRequest", "model not found"), match: byModel("main") },
        { ...reply.fault({ status: 404 }), match: byModel("second") },
        { ...reply.text("from third"), match: byModel("third") },
      ],
    });
    const events = await collect(
      client(kind, server, {
        fallbacks: ["second", "third"],
        retry: { sleep: fakeSleep().sleep },
      }).stream(request({ model: "main" })),
    );
    expect(
      events
        .filter((e) => e.type === "fallback")
        .map((e) => [e.fromModel, e.toModel, e.error.kind]),
    ).toEqual([
      ["main", "second", "invalidRequest"],
      ["second", "third", "invalidRequest"],
    ]);
    expect(events.at(-1)).toMatchObject({ type: "stop", reason: "endTurn" });
    expect(server.requests.map((r) => [r.model, r.apiKey])).toEqual([
      ["main", "sk-zen"],
      ["second", "sk-zen"],
      ["third", "sk-zen"],
    ]);
  });

  it("retries each model before falling back, and never falls back after text", async () => {
    server = await startFakeProvider({
      script: [
        ...Array.from({ length: 5 }, () => ({
          ...reply.fault({ status: 529 }),
          match: byModel("main"),
        })),
        { ...reply.of(part.text("partial"), part.error("server")), match: byModel("backup") },
        reply.text("unused"),
      ],
    });
    const { waits, sleep } = fakeSleep();
    const events = await collect(
      client(kind, server, { fallbacks: ["backup"], retry: { sleep } }).stream(
        request({ model: "main" }),
      ),
    );
    expect(waits).toEqual([500, 1000, 2000, 4000]);
    expect(events.filter((e) => e.type === "fallback")).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ type: "error", error: { kind: "server" } });
    expect(server.requests.map((r) => r.model)).toEqual([
      "main",
      "main",
      "main",
      "main",
      "main",
      "backup",
    ]);
  });

  it("does not fall back on authentication errors", async () => {
    server = await startFakeProvider({
      script: [reply.fault({ status: 401 }), reply.text("unused")],
    });
    const events = await collect(
      client(kind, server, { fallbacks: ["backup"] }).stream(request({ model: "main" })),
    );
    expect(events).toEqual([
      { type: "error", error: expect.objectContaining({ kind: "authentication" }) },
    ]);
  });
});

describe("retryDelayMs", () => {
  it("doubles up to 16 s and caps retry-after at 60 s", () => {
    const e = { kind: "server" as const, message: "x" };
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => retryDelayMs(n, e))).toEqual([
      500, 1000, 2000, 4000, 8000, 16000, 16000,
    ]);
    expect(retryDelayMs(1, { ...e, retryAfterMs: 0 })).toBe(0);
    expect(retryDelayMs(1, { ...e, retryAfterMs: 90_000 })).toBe(60_000);
  });
});

describe("withRetry and FallbackClient on a scripted model", () => {
  it("treat streamed thinking as content: no retry and no fallback after it", async () => {
    const model = new ScriptedModel([
      reply.of(part.thinking("hm"), part.error("overloaded")),
      reply.text("unused"),
    ]);
    const { waits, sleep } = fakeSleep();
    const events = await collect(
      new FallbackClient(withRetry(model, { sleep }), ["b"]).stream(request()),
    );
    expect(events.map((e) => e.type)).toEqual(["thinkingDelta", "thinkingEnd", "error"]);
    expect(waits).toEqual([]);
    expect(model.requests).toHaveLength(1);
  });

  it("a consumer that stops early closes the inner stream", async () => {
    let closed = false;
    const inner = new ScriptedModel([reply.of(part.text("a"), part.text("b"))]);
    const watched = {
      stream: (r: Parameters<typeof inner.stream>[0]) => {
        const it = inner.stream(r)[Symbol.asyncIterator]();
        return {
          [Symbol.asyncIterator]: () => ({
            next: () => it.next(),
            return: async () => {
              closed = true;
              return (await it.return?.()) ?? { done: true as const, value: undefined };
            },
          }),
        };
      },
    };
    for await (const e of withRetry(watched).stream(request())) if (e.type === "textDelta") break;
    expect(closed).toBe(true);
  });
});
