import type { ModelClient } from "@z-engine/protocol";
import { type FakeProvider, reply, startFakeProvider } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { AnthropicClient } from "./anthropic/client.js";
import { OpenAiCompatibleClient } from "./openai/client.js";
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
  it.each(clients)("%s: is called once, after the provider has the request", async (_, make) => {
    server = await startFakeProvider({ script: [reply.text("hi")] });
    const provider = server;
    const seen: number[] = [];
    const events = await collect(
      make(provider).stream(request(), { onSent: () => seen.push(provider.requests.length) }),
    );
    expect(events.at(-1)?.type).toBe("stop");
    expect(seen).toEqual([1]);
    expect(provider.requests).toHaveLength(1);
  });

  it("is called for the attempt a retry got through with, not for the failed one", async () => {
    server = await startFakeProvider({
      script: [reply.fault({ status: 529 }), reply.text("hi")],
    });
    const provider = server;
    const seen: number[] = [];
    const retrying = withRetry(
      new AnthropicClient({ baseUrl: provider.anthropicBaseUrl, apiKey: "sk-ant-test" }),
      { sleep: fakeSleep().sleep },
    );
    await collect(
      retrying.stream(request(), { onSent: () => seen.push(provider.requests.length) }),
    );
    expect(seen).toEqual([2]);
  });
});
