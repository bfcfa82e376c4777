import type { ModelEvent } from "@z-engine/protocol";
import {
  type FakeProvider,
  part,
  reply,
  type ScriptResponse,
  type FakeProviderRequest,
  startFakeProvider,
} from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { createModelClient, type LlmOptions } from "./create-client.js";
import type { ProviderKind } from "./provider.js";
import { collect, fakeSleep, request } from "./test-support/helpers.js";

// The provider fault matrix of issue 47, at the client: each fault over real HTTP in both wire
// formats, through createModelClient (retries included, the clock injected).

let server: FakeProvider | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

type Script = Array<ScriptResponse<FakeProviderRequest>>;

async function play(kind: ProviderKind, script: Script, options: Partial<LlmOptions> = {}) {
  server = await startFakeProvider({ script });
  const { waits, sleep } = fakeSleep();
  const baseUrl = kind === "anthropic" ? server.anthropicBaseUrl : server.openaiBaseUrl;
  const client = createModelClient(
    { kind, baseUrl, ...options, retry: { sleep } },
    { env: { ZENGINE_API_KEY: "k" } },
  );
  const events = await collect(client.stream(request()));
  return { events, waits, requests: server.requests.length };
}

const text = (events: ModelEvent[]) =>
  events.flatMap((e) => (e.type === "textDelta" ? [e.text] : [])).join("");
const terminals = (events: ModelEvent[]) =>
  events.filter((e) => e.type === "stop" || e.type === "error");
const calls = (events: ModelEvent[]) => events.filter((e) => e.type === "toolCall");
const writeCall = () =>
  part.toolCall("Write", { file_path: "/tmp/a.txt", content: "a long enough content string" });

describe.each(["anthropic", "openai"] as const)("the fault matrix over %s", (kind) => {
  it("429 with retry-after: one retry after the wait asked for", async () => {
    const r = await play(kind, [reply.fault({ status: 429, retryAfter: 3 }), reply.text("ok")]);
    expect(r.waits).toEqual([3000]);
    expect(text(r.events)).toBe("ok");
    expect(r.events.find((e) => e.type === "retrying")).toMatchObject({
      attempt: 1,
      delayMs: 3000,
      error: { kind: "rateLimit", status: 429 },
    });
  });

  it("429 without retry-after: the doubling schedule", async () => {
    const r = await play(kind, [
      reply.fault({ status: 429 }),
      reply.fault({ status: 429 }),
      reply.text("ok"),
    ]);
    expect(r.waits).toEqual([500, 1000]);
    expect(text(r.events)).toBe("ok");
  });

  it.each([529, 500, 502, 503])("HTTP %i is retried", async (status) => {
    const r = await play(kind, [reply.fault({ status }), reply.text("ok")]);
    expect(r.waits).toEqual([500]);
    expect(r.requests).toBe(2);
    expect(terminals(r.events)).toMatchObject([{ type: "stop", reason: "endTurn" }]);
  });

  it("a retry-after above 60 s is held to 60 s", async () => {
    const r = await play(kind, [reply.fault({ status: 529, retryAfter: 600 }), reply.text("ok")]);
    expect(r.waits).toEqual([60_000]);
  });

  it("a connection dropped before the first byte is retried", async () => {
    const r = await play(kind, [reply.fault({ drop: "beforeFirstByte" }), reply.text("ok")]);
    expect(r.waits).toEqual([500]);
    expect(text(r.events)).toBe("ok");
  });

  it("a connection dropped after some text is final: the text stays, no retry", async () => {
    // Through the first text delta: Anthropic message_start, ping, content_block_start, delta.
    const afterEvents = kind === "anthropic" ? 4 : 2;
    const r = await play(kind, [
      {
        ...reply.text("partial answer"),
        wire: { textChunkChars: 8 },
        fault: { drop: "afterFirstByte", afterEvents },
      },
      reply.text("never sent"),
    ]);
    expect(r.requests).toBe(1);
    expect(text(r.events)).toBe("partial ");
    expect(terminals(r.events)).toMatchObject([{ type: "error", error: { kind: "network" } }]);
  });

  it("a connection dropped in a tool call's JSON (nothing else streamed) is retried once, the call made once", async () => {
    const r = await play(kind, [
      { ...reply.of(writeCall()), fault: { drop: "inToolInput" } },
      reply.of(writeCall()),
    ]);
    expect(r.requests).toBe(2);
    expect(calls(r.events)).toHaveLength(1);
    expect(calls(r.events)[0]).toMatchObject({ name: "Write", input: { file_path: "/tmp/a.txt" } });
    expect(terminals(r.events)).toMatchObject([{ type: "stop", reason: "toolUse" }]);
  });

  it("a connection dropped in a tool call's JSON after text is final, and no call comes out", async () => {
    const r = await play(kind, [
      { ...reply.of(part.text("let me write"), writeCall()), fault: { drop: "inToolInput" } },
      reply.text("never sent"),
    ]);
    expect(r.requests).toBe(1);
    expect(calls(r.events)).toHaveLength(0);
    expect(terminals(r.events)).toMatchObject([{ type: "error", error: { kind: "network" } }]);
  });

  it("a stream that ends without its stop event is an error, retried while nothing streamed", async () => {
    const r = await play(kind, [
      { ...reply.of(), fault: { endWithoutStop: true } },
      reply.text("ok"),
    ]);
    expect(r.requests).toBe(2);
    expect(text(r.events)).toBe("ok");
    const cut = await play(kind, [
      { ...reply.text("half an answer"), fault: { endWithoutStop: true } },
      reply.text("never sent"),
    ]);
    expect(cut.requests).toBe(1);
    expect(terminals(cut.events)).toMatchObject([
      { type: "error", error: { kind: "network", message: expect.stringMatching(/ended before/) } },
    ]);
  });

  it("a 400 context overflow is not retried here (the engine compacts and retries)", async () => {
    const r = await play(kind, [reply.error("contextOverflow"), reply.text("never sent")], {
      fallbacks: ["other-model"],
    });
    expect(r.requests).toBe(1);
    expect(terminals(r.events)).toMatchObject([
      { type: "error", error: { kind: "contextOverflow", status: 400 } },
    ]);
  });

  it("a slow provider sending only heartbeats hits the timeout and is retried", async () => {
    const r = await play(
      kind,
      [{ ...reply.text("never"), fault: { heartbeats: true, intervalMs: 10 } }, reply.text("ok")],
      { idleTimeoutMs: 200 },
    );
    expect(r.events.find((e) => e.type === "retrying")).toMatchObject({
      error: { kind: "timeout" },
    });
    expect(text(r.events)).toBe("ok");
    expect(r.requests).toBe(2);
  });

  it("content blocks of an unknown type are skipped and the rest decoded", async () => {
    const r = await play(kind, [
      { ...reply.of(part.text("known"), writeCall()), wire: { unknownBlocks: true } },
    ]);
    expect(text(r.events)).toBe("known");
    expect(calls(r.events)).toHaveLength(1);
    expect(terminals(r.events)).toMatchObject([{ type: "stop", reason: "toolUse" }]);
  });

  it("a response with an empty content list ends with a stop and no content", async () => {
    const r = await play(kind, [reply.of()]);
    expect(r.events.filter((e) => e.type !== "usage")).toEqual([
      expect.objectContaining({ type: "stop", reason: "endTurn" }),
    ]);
  });

  it("invalid JSON in a tool input comes out as the call with its error, not a crash", async () => {
    const r = await play(kind, [
      reply.of(part.toolCall("Write", {}, "toolu_bad", '{"file_path": "/tmp/a", "content": ')),
    ]);
    expect(calls(r.events)).toMatchObject([
      { id: "toolu_bad", input: {}, inputError: expect.stringMatching(/not valid JSON/) },
    ]);
  });

  it("max_tokens in the middle of a tool call: the call comes out unparsed, the stop says maxTokens", async () => {
    const r = await play(kind, [
      reply.of(
        part.toolCall("Write", {}, "toolu_cut", '{"file_path": "/tmp/a", "content": "abc'),
        part.stop("maxTokens"),
      ),
    ]);
    expect(calls(r.events)).toMatchObject([{ id: "toolu_cut", inputError: expect.any(String) }]);
    expect(terminals(r.events)).toMatchObject([{ type: "stop", reason: "maxTokens" }]);
  });

  it("two tool calls with the same id both come out, as sent (the engine renames the repeat)", async () => {
    const r = await play(kind, [
      reply.toolCalls([
        { name: "Read", input: { file_path: "/a" }, id: "toolu_same" },
        { name: "Read", input: { file_path: "/b" }, id: "toolu_same" },
      ]),
    ]);
    const made = calls(r.events) as Array<Extract<ModelEvent, { type: "toolCall" }>>;
    expect(made.map((c) => (c.input as { file_path: string }).file_path)).toEqual(["/a", "/b"]);
    expect(made.map((c) => c.id)).toEqual(["toolu_same", "toolu_same"]);
  });
});
