import { reply } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { FORMATS, main, streamJson, type World, world } from "./cli.test.helpers.js";

let w: World | undefined;
afterEach(async () => {
  await w?.dispose();
  w = undefined;
});

const run = (w: World) => w.run(["-p", "hello", "--output-format", "stream-json"]);

describe.each(FORMATS)("the provider failing, over %s", (format) => {
  it("529 with retry-after, then success: one retry after the asked wait, completed", async () => {
    w = await world({ format });
    w.provider.push(main(reply.fault({ status: 529, retryAfter: 1 })), main(reply.text("hi")));
    const result = await run(w);
    expect(result.code).toBe(0);
    const { envelopes, result: line } = streamJson(result.stdout);
    expect(line).toMatchObject({ outcome: "completed" });
    const retrying = envelopes.map((e) => e.event).filter((e) => e.type === "retrying");
    expect(retrying).toMatchObject([{ attempt: 1, reason: "overloaded", delayMs: 1000 }]);
    expect(w.mainRequests()).toHaveLength(2);
  });

  it("a dropped connection is retried and the turn completes", async () => {
    w = await world({ format });
    w.provider.push(main(reply.fault({ drop: "beforeFirstByte" })), main(reply.text("hi")));
    const result = await run(w);
    expect(result.code).toBe(0);
    const { envelopes, result: line } = streamJson(result.stdout);
    expect(line).toMatchObject({ outcome: "completed" });
    expect(envelopes.some((e) => e.event.type === "retrying")).toBe(true);
    const finished = envelopes.map((e) => e.event).find((e) => e.type === "assistantFinished");
    expect(JSON.stringify(finished)).toContain('"text":"hi"');
  });

  it("500 until the attempts run out: outcome failed, exit 1", async () => {
    w = await world({ format });
    for (let i = 0; i < 5; i++)
      w.provider.push(
        main(reply.fault({ status: 500, retryAfterMs: 10, message: "upstream down" })),
      );
    const result = await run(w);
    expect(result.code).toBe(1);
    const { envelopes, result: line } = streamJson(result.stdout);
    expect(line).toMatchObject({ outcome: "failed" });
    expect(String(line.reason)).toContain("upstream down");
    expect(envelopes.map((e) => e.event).filter((e) => e.type === "retrying")).toHaveLength(4);
    expect(w.mainRequests()).toHaveLength(5);
  });
});

describe("a missing key", () => {
  it("anthropic: fails the turn with the reason (exit 1) without sending a request", async () => {
    w = await world({ format: "anthropic" });
    const result = await w.run(["-p", "hello", "--output-format", "json"], {
      ZENGINE_API_KEY: undefined,
    });
    expect(result.code).toBe(1);
    const line = JSON.parse(result.stdout) as { outcome: string; reason: string };
    expect(line.outcome).toBe("failed");
    expect(line.reason).toMatch(/key/i);
    expect(w.mainRequests()).toHaveLength(0);
  });

  it("openai-compatible: the request goes without a key, the 401 fails the turn (exit 1)", async () => {
    w = await world({ format: "openai", apiKey: "test-key" });
    const result = await w.run(["-p", "hello", "--output-format", "json"], {
      ZENGINE_API_KEY: undefined,
    });
    expect(result.code).toBe(1);
    const line = JSON.parse(result.stdout) as { outcome: string; reason: string };
    expect(line).toMatchObject({ outcome: "failed" });
    expect(line.reason).toMatch(/authentication/);
    expect(w.provider.requests.every((r) => r.apiKey === undefined)).toBe(true);
  });
});
