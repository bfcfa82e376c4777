import { MessageAssembler, type ModelEvent, type ModelRequest } from "@z-engine/protocol";
import { describe, expect, it } from "vitest";
import { part, reply, when } from "./model-script.js";
import { ScriptedModel } from "./scripted-model.js";

const request = (text: string, model = "m"): ModelRequest => ({
  model,
  system: [],
  tools: [],
  messages: [{ role: "user", content: [{ type: "text", text }] }],
  cacheMarks: [],
  maxTokens: 100,
});

async function collect(stream: AsyncIterable<ModelEvent>): Promise<ModelEvent[]> {
  const out: ModelEvent[] = [];
  for await (const e of stream) out.push(e);
  return out;
}

describe("ScriptedModel", () => {
  it("plays responses in order, appends the stop, and records every request", async () => {
    const model = new ScriptedModel([
      reply.toolCalls(
        [
          { name: "Read", input: { file_path: "a" }, id: "call_1" },
          { name: "Grep", input: { pattern: "x" }, id: "call_2" },
        ],
        { text: "Looking.", usage: { input: 10, output: 3 } },
      ),
      reply.thinking("plan", "done"),
    ]);
    const first = await collect(model.stream(request("go")));
    expect(first).toEqual([
      { type: "textDelta", text: "Looking." },
      { type: "toolCall", id: "call_1", name: "Read", input: { file_path: "a" } },
      { type: "toolCall", id: "call_2", name: "Grep", input: { pattern: "x" } },
      { type: "usage", usage: { input: 10, output: 3, cacheRead: 0, cacheWrite: 0 } },
      { type: "stop", reason: "toolUse" },
    ]);
    const second = await collect(model.stream(request("next")));
    const assembled = new MessageAssembler();
    for (const e of second) assembled.push(e);
    expect(assembled.content).toEqual([
      { type: "thinking", thinking: "plan", signature: "sig-4" },
      { type: "text", text: "done" },
    ]);
    expect(model.requests.map((r) => r.messages[0]?.content[0])).toEqual([
      { type: "text", text: "go" },
      { type: "text", text: "next" },
    ]);
    expect(model.remaining).toBe(0);
  });

  it("answers by match, keeps a copy of each request, and stops at the first terminal event", async () => {
    const model = new ScriptedModel([
      when((r) => r.model === "fast", reply.text("title")),
      reply.of(part.text("main"), part.error("overloaded"), part.text("never")),
    ]);
    const req = request("hi", "main-model");
    const main = await collect(model.stream(req));
    req.messages.length = 0;
    const fast = await collect(model.stream(request("hi", "fast")));
    expect(main).toEqual([
      { type: "textDelta", text: "main" },
      { type: "error", error: { kind: "overloaded", message: "scripted overloaded" } },
    ]);
    expect(fast[0]).toEqual({ type: "textDelta", text: "title" });
    expect(model.requests[0]?.messages).toHaveLength(1);
  });

  it("ends an exhausted script with a clear error instead of throwing", async () => {
    const model = new ScriptedModel([when((r) => r.model === "other", reply.text("x"))]);
    const events = await collect(model.stream(request("what now?")));
    expect(events).toEqual([
      {
        type: "error",
        error: {
          kind: "unknown",
          message:
            'ScriptedModel: no scripted response left for request #1 (model m; last text: "what now?")',
        },
      },
    ]);
    model.push(reply.text("later"));
    expect((await collect(model.stream(request("again"))))[0]).toEqual({
      type: "textDelta",
      text: "later",
    });
  });

  it("plays faults as the errors a real client ends with", async () => {
    const model = new ScriptedModel([
      reply.fault({ status: 429, retryAfter: 3 }),
      reply.fault({ drop: "afterFirstByte" }),
      reply.fault({ status: 529 }),
    ]);
    const kinds = [];
    for (let i = 0; i < 3; i++) kinds.push((await collect(model.stream(request("x"))))[0]);
    expect(kinds).toEqual([
      {
        type: "error",
        error: { kind: "rateLimit", message: "scripted HTTP 429", status: 429, retryAfterMs: 3000 },
      },
      { type: "error", error: { kind: "network", message: "scripted dropped connection" } },
      { type: "error", error: { kind: "overloaded", message: "scripted HTTP 529", status: 529 } },
    ]);
  });

  it("honours the abort signal between delayed events and during a stall", async () => {
    const model = new ScriptedModel(
      [reply.of(part.text("a"), part.text("b"), part.text("c")), reply.fault({ stall: true })],
      { delayMs: 5 },
    );
    const abort = new AbortController();
    const seen: ModelEvent[] = [];
    for await (const e of model.stream(request("x"), { signal: abort.signal })) {
      seen.push(e);
      if (e.type === "textDelta") abort.abort();
    }
    expect(seen).toEqual([
      { type: "textDelta", text: "a" },
      { type: "error", error: { kind: "cancelled", message: "the request was cancelled" } },
    ]);
    const stall = new AbortController();
    const stalled = collect(model.stream(request("y"), { signal: stall.signal }));
    stall.abort();
    expect(await stalled).toEqual([
      { type: "error", error: { kind: "cancelled", message: "the request was cancelled" } },
    ]);
  });
});
