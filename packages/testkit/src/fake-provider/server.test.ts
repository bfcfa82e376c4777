import { describe, expect, it } from "vitest";
import { part, reply } from "../model-script.js";
import { startFakeProvider } from "./server.js";

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

describe("startFakeProvider", () => {
  it("answers non-streaming requests in both formats from the same script", async () => {
    const call = part.toolCall("Read", { file_path: "a" }, "toolu_1");
    const server = await startFakeProvider({
      script: [
        reply.of(
          part.thinking("t", "s"),
          part.text("hi"),
          call,
          part.usage({ input: 5, output: 2, cacheRead: 1 }),
        ),
        reply.of(part.text("hi"), call),
      ],
    });
    const anthropic = await (
      await post(`${server.url}/v1/messages`, { model: "c", messages: [] }, { "x-api-key": "k1" })
    ).json();
    expect(anthropic).toMatchObject({
      type: "message",
      model: "c",
      content: [
        { type: "thinking", thinking: "t", signature: "s" },
        { type: "text", text: "hi" },
        { type: "tool_use", id: "toolu_1", name: "Read", input: { file_path: "a" } },
      ],
      stop_reason: "tool_use",
      usage: { input_tokens: 5, output_tokens: 2, cache_read_input_tokens: 1 },
    });
    const openai = (await (
      await post(
        `${server.openaiBaseUrl}/chat/completions`,
        { model: "g", messages: [] },
        { authorization: "Bearer k2" },
      )
    ).json()) as { choices: unknown[] };
    expect(openai.choices[0]).toEqual({
      index: 0,
      message: {
        role: "assistant",
        content: "hi",
        tool_calls: [
          {
            id: "toolu_1",
            type: "function",
            function: { name: "Read", arguments: '{"file_path":"a"}' },
          },
        ],
      },
      finish_reason: "tool_calls",
    });
    expect(server.requests.map((r) => [r.format, r.apiKey, r.stream, r.model])).toEqual([
      ["anthropic", "k1", false, "c"],
      ["openai", "k2", false, "g"],
    ]);
    await server.close();
  });

  it("streams real SSE, rejects wrong keys, unknown routes and an exhausted script", async () => {
    const server = await startFakeProvider({
      script: [reply.text("héllo")],
      apiKey: "right",
      wire: { writeBytes: 3 },
    });
    expect(
      (await post(`${server.url}/v1/messages`, { stream: true }, { "x-api-key": "wrong" })).status,
    ).toBe(401);
    const res = await post(
      `${server.url}/v1/messages`,
      { stream: true, model: "c" },
      { "x-api-key": "right" },
    );
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    const text = await res.text();
    expect(text).toContain(
      'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"héllo"}}',
    );
    expect(text.trim().endsWith('data: {"type":"message_stop"}')).toBe(true);
    const exhausted = await post(
      `${server.url}/v1/messages`,
      { stream: true },
      { "x-api-key": "right" },
    );
    expect(exhausted.status).toBe(400);
    expect(await exhausted.text()).toMatch(/no scripted response left for request #3/);
    expect((await post(`${server.url}/v1/other`, {})).status).toBe(404);
    const notJson = await fetch(`${server.url}/v1/messages`, {
      method: "POST",
      body: "{nope",
      headers: { "x-api-key": "right" },
    });
    expect(notJson.status).toBe(400);
    await server.close();
  });

  it("sends retry-after headers with status faults", async () => {
    const server = await startFakeProvider({
      script: [reply.fault({ status: 529, retryAfter: 2 })],
    });
    const res = await post(`${server.openaiBaseUrl}/chat/completions`, { stream: true });
    expect(res.status).toBe(529);
    expect(res.headers.get("retry-after")).toBe("2");
    expect(await res.json()).toMatchObject({ error: { type: "overloaded_error" } });
    await server.close();
  });
});

describe("startFakeProvider's faults", () => {
  const stream = (
    server: { url: string; openaiBaseUrl: string },
    format: "anthropic" | "openai",
  ) =>
    format === "anthropic"
      ? post(`${server.url}/v1/messages`, { stream: true, model: "c" })
      : post(`${server.openaiBaseUrl}/chat/completions`, { stream: true, model: "g" });

  /** The body as far as it arrives, and whether the connection broke. */
  async function body(res: Response): Promise<{ text: string; broke: boolean }> {
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = "";
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return { text, broke: false };
        text += decoder.decode(value, { stream: true });
      }
    } catch {
      return { text, broke: true };
    }
  }

  const call = () =>
    reply.of(part.text("hi"), part.toolCall("Write", { file_path: "/a", content: "x".repeat(40) }));

  it.each(["anthropic", "openai"] as const)(
    "%s: drop inToolInput breaks the connection after the first input fragment",
    async (format) => {
      const server = await startFakeProvider({
        script: [{ ...call(), fault: { drop: "inToolInput" } }],
      });
      const { text, broke } = await body(await stream(server, format));
      expect(broke).toBe(true);
      expect(text).toContain("hi");
      const fragments =
        format === "anthropic"
          ? text.split('"input_json_delta"').length - 1
          : (text.match(/"arguments":"[^"]/g) ?? []).length;
      expect(fragments).toBe(1);
      await server.close();
    },
  );

  it.each(["anthropic", "openai"] as const)(
    "%s: endWithoutStop ends cleanly without the stop event",
    async (format) => {
      const server = await startFakeProvider({
        script: [{ ...call(), fault: { endWithoutStop: true } }],
      });
      const { text, broke } = await body(await stream(server, format));
      expect(broke).toBe(false);
      expect(text).toContain("hi");
      expect(text).not.toMatch(/message_stop|message_delta|\[DONE\]|"finish_reason":"/);
      await server.close();
    },
  );

  it.each(["anthropic", "openai"] as const)(
    "%s: heartbeats keep coming and nothing else",
    async (format) => {
      const server = await startFakeProvider({
        script: [{ ...reply.text("never"), fault: { heartbeats: true, intervalMs: 5 } }],
      });
      const res = await stream(server, format);
      const reader = (res.body as ReadableStream<Uint8Array>).getReader();
      const decoder = new TextDecoder();
      let text = "";
      const beat = format === "anthropic" ? /event: ping/g : /: keep-alive/g;
      while ((text.match(beat) ?? []).length < (format === "anthropic" ? 4 : 3)) {
        const { value } = await reader.read();
        text += decoder.decode(value, { stream: true });
      }
      await reader.cancel();
      expect(text).not.toContain("never");
      await server.close();
    },
  );

  it.each(["anthropic", "openai"] as const)(
    "%s: unknownBlocks sends content of a type the wire does not define, then the rest",
    async (format) => {
      const server = await startFakeProvider({
        script: [{ ...reply.text("hi"), wire: { unknownBlocks: true } }],
      });
      const { text } = await body(await stream(server, format));
      expect(text).toContain(format === "anthropic" ? '"type":"future_block"' : '"future_field"');
      expect(text).toContain("hi");
      await server.close();
    },
  );
});

describe("startFakeProvider's respond", () => {
  it("answers what the script does not take, from the request", async () => {
    const server = await startFakeProvider({
      script: [reply.text("scripted")],
      respond: (r) => (r.model === "known" ? reply.text(`answer for ${r.model}`) : undefined),
    });
    const ask = async (model: string) =>
      (await post(`${server.url}/v1/messages`, { model, messages: [] })).json() as Promise<{
        content?: Array<{ text: string }>;
      }>;
    expect((await ask("known")).content?.[0]?.text).toBe("scripted");
    expect((await ask("known")).content?.[0]?.text).toBe("answer for known");
    const res = await post(`${server.url}/v1/messages`, { model: "other", messages: [] });
    expect(res.status).toBe(400);
    await server.close();
  });
});
