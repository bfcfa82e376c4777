import { readFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { type Server, createServer, globalAgent } from "node:https";
import type { AddressInfo } from "node:net";
import { type FakeProvider, reply, startFakeProvider } from "@z-engine/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AnthropicClient } from "./anthropic/client.js";
import { OpenAiCompatibleClient } from "./openai/client.js";
import { collect, request } from "./test-support/helpers.js";

// The providers are reached over https. The fake provider speaks http, so a TLS front (a
// self-signed certificate for 127.0.0.1, trusted here through node:https's global agent,
// which the transport uses) passes each request on to it, byte for byte.

const tls = new URL("./test-support/tls/", import.meta.url);
const cert = readFileSync(new URL("cert.pem", tls));
const key = readFileSync(new URL("key.pem", tls));

let provider: FakeProvider;
let front: Server;
let base: string;
const trusted = globalAgent.options.ca;

beforeEach(async () => {
  provider = await startFakeProvider({ script: [reply.text("over tls")] });
  const target = new URL(provider.anthropicBaseUrl);
  front = createServer({ cert, key }, (req, res) => {
    const out = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: req.url,
        method: req.method,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(out);
  });
  await new Promise<void>((resolve) => front.listen(0, "127.0.0.1", resolve));
  base = `https://127.0.0.1:${(front.address() as AddressInfo).port}`;
  globalAgent.options.ca = cert;
});

afterEach(async () => {
  globalAgent.options.ca = trusted;
  globalAgent.destroy();
  await new Promise((resolve) => front.close(resolve));
  await provider.close();
});

describe("the node:http transport over https", () => {
  it("streams an Anthropic answer through TLS", async () => {
    let sent = 0;
    const client = new AnthropicClient({ baseUrl: base, apiKey: "sk-ant-test" });
    const events = await collect(client.stream(request(), { onSent: () => sent++ }));
    expect(events.at(-1)).toMatchObject({ type: "stop" });
    const text = events.flatMap((e) => (e.type === "textDelta" ? [e.text] : [])).join("");
    expect(text).toBe("over tls");
    expect(sent).toBe(1);
    expect(provider.requests).toHaveLength(1);
  });

  it("streams an OpenAI-compatible answer through TLS", async () => {
    const openaiBase = `${base}${new URL(provider.openaiBaseUrl).pathname}`;
    const client = new OpenAiCompatibleClient({ baseUrl: openaiBase, apiKey: "sk-test" });
    const events = await collect(client.stream(request()));
    expect(events.at(-1)).toMatchObject({ type: "stop" });
  });

  it("refuses a certificate it does not trust, as a network error", async () => {
    globalAgent.options.ca = trusted;
    globalAgent.destroy();
    const client = new AnthropicClient({ baseUrl: base, apiKey: "sk-ant-test" });
    const events = await collect(client.stream(request()));
    expect(events.at(-1)).toMatchObject({ type: "error", error: { kind: "network" } });
    expect(provider.requests).toHaveLength(0);
  });
});
