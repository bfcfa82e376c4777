import { MessageAssembler } from "@z-engine/protocol";
import { type FakeProvider, part, reply, startFakeProvider } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import type { ClientConfig } from "../client-config.js";
import { collect, request, withoutUsage } from "../test-support/helpers.js";
import { OpenAiCompatibleClient } from "./client.js";

let server: FakeProvider | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const client = (s: FakeProvider, extra: Partial<ClientConfig> = {}) =>
  new OpenAiCompatibleClient({ baseUrl: s.openaiBaseUrl, apiKey: "sk-test", ...extra });

const assemble = (events: Parameters<MessageAssembler["push"]>[0][]) => {
  const a = new MessageAssembler();
  for (const e of events) a.push(e);
  return a;
};

describe("OpenAiCompatibleClient streaming", () => {
  it("assembles text, reasoning and parallel tool calls interleaved by index, split mid-character and mid-token", async () => {
    const a = { file_path: "ä/b.ts", pattern: '"quoted" \\ 🎉' };
    const b = { command: "echo 日本語", timeout: 5 };
    server = await startFakeProvider({
      script: [
        reply.of(
          part.thinking("thinking… ✓"),
          part.text("Ok — 两个 calls 🎉"),
          part.toolCall("Read", a, "call_a"),
          part.toolCall("Bash", b, "call_b"),
          part.toolCall("Glob", {}, "call_c"),
          part.usage({ input: 100, output: 7, cacheRead: 40 }),
        ),
      ],
      wire: { textChunkChars: 1, jsonChunkChars: 2, writeBytes: 1 },
    });
    const events = await collect(client(server).stream(request({ model: "gpt-test" })));
    const assembled = assemble(events);
    expect(assembled.content).toEqual([
      { type: "thinking", thinking: "thinking… ✓" },
      { type: "text", text: "Ok — 两个 calls 🎉" },
      { type: "toolUse", id: "call_a", name: "Read", input: a },
      { type: "toolUse", id: "call_b", name: "Bash", input: b },
      { type: "toolUse", id: "call_c", name: "Glob", input: {} },
    ]);
    expect(assembled.usage).toEqual({ input: 100, output: 7, cacheRead: 40, cacheWrite: 0 });
    expect(events.at(-1)).toEqual({ type: "stop", reason: "toolUse", model: "gpt-test" });
    const body = server.requests[0]?.body as Record<string, unknown>;
    expect(body.stream_options).toEqual({ include_usage: true });
    expect(server.requests[0]?.headers.authorization).toBe("Bearer sk-test");
  });

  it("handles Ollama and LM Studio quirks: no usage, no tool-call ids, `reasoning` field", async () => {
    server = await startFakeProvider({
      script: [
        reply.of(
          part.thinking("hmm"),
          part.toolCall("Read", { file_path: "a" }),
          part.toolCall("Read", { file_path: "b" }),
        ),
      ],
      wire: { noUsage: true, noToolCallIds: true, reasoningField: "reasoning" },
    });
    const events = await collect(
      client(server, { apiKey: undefined }).stream(request({ model: "llama3" })),
    );
    expect(events.some((e) => e.type === "usage")).toBe(false);
    const calls = events.filter((e) => e.type === "toolCall");
    expect(calls.map((c) => c.input)).toEqual([{ file_path: "a" }, { file_path: "b" }]);
    expect(new Set(calls.map((c) => c.id)).size).toBe(2);
    for (const c of calls) expect(c.id).toMatch(/^call_/);
    expect(events[0]).toEqual({ type: "thinkingDelta", text: "hmm" });
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
  });

  it("reports malformed tool arguments and maps finish reasons", async () => {
    server = await startFakeProvider({
      script: [
        reply.toolCalls([{ name: "Edit", input: {}, id: "call_1", rawInput: "[1, 2]" }]),
        reply.of(part.text("long"), part.stop("maxTokens")),
      ],
    });
    const first = withoutUsage(await collect(client(server).stream(request())));
    expect(first[0]).toMatchObject({
      type: "toolCall",
      input: {},
      rawInput: "[1, 2]",
      inputError: "the tool input is not a JSON object",
    });
    const second = withoutUsage(await collect(client(server).stream(request())));
    expect(second.at(-1)).toMatchObject({ type: "stop", reason: "maxTokens" });
  });
});

describe("OpenAiCompatibleClient requests", () => {
  it("maps messages, tools, effort and max tokens; passes cache marks as cache_control when asked", async () => {
    server = await startFakeProvider({ script: [reply.text("ok"), reply.text("ok")] });
    const req = request({
      tools: [{ name: "Read", description: "read a file", inputSchema: { type: "object" } }],
      messages: [
        { role: "user", content: [{ type: "text", text: "one" }] },
        {
          role: "assistant",
          content: [
            { type: "text", text: "" },
            { type: "toolUse", id: "call_1" as never, name: "Read", input: { file_path: "a" } },
          ],
        },
        {
          role: "user",
          content: [
            {
              type: "toolResult",
              toolUseId: "call_1" as never,
              content: [{ type: "text", text: "boom" }],
              isError: true,
            },
            { type: "text", text: "two" },
          ],
        },
      ],
      cacheMarks: [
        { target: "system", index: 0 },
        { target: "message", index: 2 },
      ],
      effort: "max",
    });
    await collect(client(server, { cacheControl: true }).stream(req));
    await collect(client(server).stream(req));
    const [marked, plain] = server.requests.map((r) => r.body as Record<string, unknown>);
    expect(marked?.messages).toEqual([
      {
        role: "system",
        content: [{ type: "text", text: "You are a test.", cache_control: { type: "ephemeral" } }],
      },
      { role: "user", content: [{ type: "text", text: "one" }] },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          {
            id: "call_1",
            type: "function",
            function: { name: "Read", arguments: '{"file_path":"a"}' },
          },
        ],
      },
      { role: "tool", tool_call_id: "call_1", content: "Error: boom" },
      {
        role: "user",
        content: [{ type: "text", text: "two", cache_control: { type: "ephemeral" } }],
      },
    ]);
    expect(marked?.reasoning_effort).toBe("high");
    expect(marked?.max_tokens).toBe(1024);
    expect(marked?.tools).toEqual([
      {
        type: "function",
        function: { name: "Read", description: "read a file", parameters: { type: "object" } },
      },
    ]);
    expect(JSON.stringify(plain)).not.toContain("cache_control");
  });
});
