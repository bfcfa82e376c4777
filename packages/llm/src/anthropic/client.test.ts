import { MessageAssembler, type ModelEvent } from "@z-engine/protocol";
import { type FakeProvider, part, reply, startFakeProvider } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { collect, request, withoutUsage } from "../test-support/helpers.js";
import { AnthropicClient } from "./client.js";
import { usesAdaptiveThinking } from "./request.js";

let server: FakeProvider | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const client = (s: FakeProvider, extra: { idleTimeoutMs?: number } = {}) =>
  new AnthropicClient({ baseUrl: s.anthropicBaseUrl, apiKey: "sk-ant-test", ...extra });

describe("AnthropicClient", () => {
  it("streams text, thinking and tool calls split across UTF-8 characters and JSON tokens", async () => {
    const input = {
      file_path: "src/å/ß.ts",
      note: "naïve — 日本語 🎉",
      n: [1, 2.5, { deep: true }],
    };
    server = await startFakeProvider({
      script: [
        reply.of(
          part.thinking("Let me think… 🤔 ünïcödé", "sig-abc"),
          part.text("Voilà: 日本語 and 🎉!"),
          part.toolCall("Read", input, "toolu_1"),
          part.usage({ input: 10, output: 20, cacheRead: 5, cacheWrite: 7 }),
        ),
      ],
      wire: { textChunkChars: 1, jsonChunkChars: 1, writeBytes: 1 },
    });
    const events = await collect(client(server).stream(request({ effort: "low" })));
    const assembled = new MessageAssembler();
    for (const e of events) assembled.push(e);
    expect(assembled.content).toEqual([
      { type: "thinking", thinking: "Let me think… 🤔 ünïcödé", signature: "sig-abc" },
      { type: "text", text: "Voilà: 日本語 and 🎉!" },
      { type: "toolUse", id: "toolu_1", name: "Read", input },
    ]);
    expect(assembled.usage).toEqual({ input: 10, output: 20, cacheRead: 5, cacheWrite: 7 });
    expect(events.at(-1)).toEqual({ type: "stop", reason: "toolUse", model: "claude-test-1" });
    expect(events.filter((e) => e.type === "stop" || e.type === "error")).toHaveLength(1);
  });
});

describe("AnthropicClient requests", () => {
  it("turns cache marks into cache_control, effort into a thinking budget below max_tokens", async () => {
    server = await startFakeProvider({ script: [reply.text("ok"), reply.text("ok")] });
    const base = request({
      system: [
        { id: "a", text: "base", cacheable: true },
        { id: "b", text: "env", cacheable: false },
      ],
      tools: [
        { name: "Read", description: "read", inputSchema: { type: "object", properties: {} } },
        { name: "Grep", description: "grep", inputSchema: { type: "object", properties: {} } },
      ],
      messages: [
        { role: "user", content: [{ type: "text", text: "one" }] },
        {
          role: "assistant",
          content: [
            { type: "thinking", thinking: "hm", signature: "s1" },
            { type: "thinking", thinking: "unsigned" },
            { type: "toolUse", id: "toolu_9" as never, name: "Read", input: { file_path: "a" } },
          ],
        },
        {
          role: "user",
          content: [
            {
              type: "toolResult",
              toolUseId: "toolu_9" as never,
              content: [{ type: "text", text: "" }],
              isError: false,
            },
            { type: "text", text: "two" },
          ],
        },
      ],
      cacheMarks: [
        { target: "system", index: 0 },
        { target: "tools" },
        { target: "message", index: 2 },
      ],
      effort: "low",
      temperature: 0.2,
      maxTokens: 4096,
    });
    await collect(client(server).stream(base));
    await collect(client(server).stream({ ...base, effort: "max", maxTokens: 1000 }));
    const [first, second] = server.requests.map((r) => r.body as Record<string, unknown>);
    expect(server.requests[0]?.apiKey).toBe("sk-ant-test");
    expect(first?.system).toEqual([
      { type: "text", text: "base", cache_control: { type: "ephemeral" } },
      { type: "text", text: "env" },
    ]);
    const tools = first?.tools as Array<Record<string, unknown>>;
    expect(tools[0]?.cache_control).toBeUndefined();
    expect(tools[1]?.cache_control).toEqual({ type: "ephemeral" });
    const messages = first?.messages as Array<{ content: Array<Record<string, unknown>> }>;
    expect(messages[1]?.content.map((b) => b.type)).toEqual(["thinking", "tool_use"]);
    expect(messages[2]?.content).toEqual([
      {
        type: "tool_result",
        tool_use_id: "toolu_9",
        is_error: false,
        content: [{ type: "text", text: "(empty)" }],
      },
      { type: "text", text: "two", cache_control: { type: "ephemeral" } },
    ]);
    expect(first?.thinking).toEqual({ type: "enabled", budget_tokens: 2048 });
    expect(first?.max_tokens).toBe(4096);
    expect(first?.temperature).toBeUndefined();
    expect(second?.thinking).toEqual({ type: "enabled", budget_tokens: 32768 });
    expect(second?.max_tokens).toBe(33768);
  });

  it("sends effort as adaptive thinking to Claude 4.6 and later, a budget to older models", async () => {
    server = await startFakeProvider({ script: [reply.text("ok"), reply.text("ok")] });
    await collect(client(server).stream(request({ model: "claude-sonnet-5-5", effort: "high" })));
    await collect(client(server).stream(request({ model: "claude-haiku-4-5", effort: "high" })));
    const [current, older] = server.requests.map((r) => r.body as Record<string, unknown>);
    expect(current?.thinking).toEqual({ type: "adaptive" });
    expect(current?.output_config).toEqual({ effort: "high" });
    expect(older?.thinking).toEqual({ type: "enabled", budget_tokens: 16384 });
    expect(older?.output_config).toBeUndefined();
    expect(
      [
        "claude-opus-4-6",
        "claude-sonnet-4-6",
        "claude-opus-5",
        "claude-fable-5-1",
        "anthropic/claude-sonnet-5-5",
      ].map(usesAdaptiveThinking),
    ).toEqual([true, true, true, true, true]);
    expect(
      ["claude-sonnet-4-5-20250929", "claude-opus-4-1", "claude-3-7-sonnet-latest", "gpt-5"].map(
        usesAdaptiveThinking,
      ),
    ).toEqual([false, false, false, false]);
  });

  it("sends temperature and no thinking without effort", async () => {
    server = await startFakeProvider({ script: [reply.text("ok")] });
    await collect(client(server).stream(request({ temperature: 0.3 })));
    const body = server.requests[0]?.body as Record<string, unknown>;
    expect(body.thinking).toBeUndefined();
    expect(body.temperature).toBe(0.3);
    expect(body.stream).toBe(true);
  });
});

describe("AnthropicClient edge cases", () => {
  it("reports tool input that is not JSON with rawInput and inputError", async () => {
    server = await startFakeProvider({
      script: [
        reply.toolCalls([
          { name: "Edit", input: {}, id: "toolu_x", rawInput: '{"file_path": "a", ' },
        ]),
      ],
    });
    const events = withoutUsage(await collect(client(server).stream(request())));
    expect(events[0]).toMatchObject({
      type: "toolCall",
      id: "toolu_x",
      name: "Edit",
      input: {},
      rawInput: '{"file_path": "a", ',
    });
    expect((events[0] as { inputError?: string }).inputError).toMatch(/not valid JSON/);
    expect(events[1]).toEqual({ type: "stop", reason: "toolUse", model: "claude-test-1" });
  });

  it("passes redacted thinking through and maps stop reasons", async () => {
    server = await startFakeProvider({
      script: [
        reply.of(part.redactedThinking("opaque=="), part.text("cut"), part.stop("maxTokens")),
      ],
    });
    const events = withoutUsage(await collect(client(server).stream(request())));
    expect(events).toEqual([
      { type: "redactedThinking", data: "opaque==" },
      { type: "textDelta", text: "cut" },
      { type: "stop", reason: "maxTokens", model: "claude-test-1" },
    ]);
  });

  it("fails at once without a key and sends nothing", async () => {
    server = await startFakeProvider({ script: [reply.text("never")] });
    const events = await collect(new AnthropicClient({ baseUrl: server.url }).stream(request()));
    expect(events).toEqual([
      {
        type: "error",
        error: {
          kind: "authentication",
          message: expect.stringMatching(/no API key for 127\.0\.0\.1/),
        },
      },
    ]);
    expect(server.requests).toHaveLength(0);
  });

  it("ends with an error event, not a throw, when the stream errors after text", async () => {
    server = await startFakeProvider({
      script: [reply.of(part.text("partial"), part.error("overloaded", "busy"))],
    });
    const events: ModelEvent[] = withoutUsage(await collect(client(server).stream(request())));
    expect(events).toEqual([
      { type: "textDelta", text: "partial" },
      {
        type: "error",
        error: expect.objectContaining({
          kind: "overloaded",
          message: expect.stringMatching(/busy/),
        }),
      },
    ]);
  });
});
