import type { ModelClient } from "@z-engine/protocol";
import { type FakeProvider, reply, startFakeProvider } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { AnthropicClient } from "./anthropic/client.js";
import { OpenAiCompatibleClient } from "./openai/client.js";
import { watchRequestSent } from "./request-sent.js";
import { withRetry } from "./retry.js";
import { collect, fakeSleep, request } from "./test-support/helpers.js";

let server: FakeProvider | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const clients: [string, (s: FakeProvider) => ModelClient][] = [
  ["anthropic", (s) => new AnthropicClient({ baseUrl: s.anthropicBaseUrl, apiKey: "sk-ant-test" })],
  ["openai", (s) => new OpenAiCompatibleClient({ baseUrl: s.openaiBaseUrl, apiKey: "sk-test" })],
];

describe("onSent", () => {
  it.each(clients)("%s: is called once, and the provider has the request", async (_, make) => {
    server = await startFakeProvider({ script: [reply.text("hi")] });
    let calls = 0;
    const events = await collect(make(server).stream(request(), { onSent: () => calls++ }));
    expect(events.at(-1)?.type).toBe("stop");
    expect(calls).toBe(1);
    expect(server.requests).toHaveLength(1);
  });

  it.each(clients)(
    "%s: is called when the body went out, not when the answer began",
    async (_, make) => {
      // Each of the answer's wire events waits 400 ms, its headers with the first.
      server = await startFakeProvider({ script: [{ ...reply.text("hi"), delayMs: 400 }] });
      let sentAt: number | undefined;
      let firstAt: number | undefined;
      for await (const event of make(server).stream(request(), {
        onSent: () => {
          sentAt = performance.now();
        },
      })) {
        firstAt = performance.now();
        expect(event.type).not.toBe("error");
        break;
      }
      if (sentAt === undefined || firstAt === undefined) throw new Error("no onSent or no event");
      expect(firstAt - sentAt).toBeGreaterThanOrEqual(350);
    },
  );

  it("is called for each attempt of a retry whose request went out", async () => {
    server = await startFakeProvider({
      script: [reply.fault({ status: 529 }), reply.text("hi")],
    });
    let calls = 0;
    const retrying = withRetry(
      new AnthropicClient({ baseUrl: server.anthropicBaseUrl, apiKey: "sk-ant-test" }),
      { sleep: fakeSleep().sleep },
    );
    const events = await collect(retrying.stream(request(), { onSent: () => calls++ }));
    expect(events.at(-1)?.type).toBe("stop");
    expect(calls).toBe(2);
  });

  it("counts only reports for its endpoint; sent() calls once", async () => {
    server = await startFakeProvider({ script: [reply.text("hi")] });
    // A base URL with a path no request is made under: the client's report does not match.
    const watch = watchRequestSent(`${server.anthropicBaseUrl}/elsewhere`, () => calls++);
    let calls = 0;
    await collect(
      new AnthropicClient({ baseUrl: server.anthropicBaseUrl, apiKey: "k" }).stream(request()),
    );
    expect(calls).toBe(0);
    watch.sent();
    watch.sent();
    expect(calls).toBe(1);
  });
});
