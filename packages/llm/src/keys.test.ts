import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FakeProvider, reply, startFakeProvider } from "@z-engine/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createModelClient } from "./create-client.js";
import { LlmError } from "./errors.js";
import { providerKeyVariable, readAuthFile, resolveApiKey, saveApiKey } from "./keys.js";
import { collect, request } from "./test-support/helpers.js";

let dataDir: string;
const servers: FakeProvider[] = [];
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "zeng-llm-keys-"));
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  await rm(dataDir, { recursive: true, force: true });
});

describe("resolveApiKey", () => {
  it("takes ZENGINE_API_KEY, then the provider's own variable, then auth.json", async () => {
    await saveApiKey(dataDir, "api.anthropic.com", "from-file");
    const host = "api.anthropic.com";
    expect(
      await resolveApiKey({
        host,
        dataDir,
        env: { ZENGINE_API_KEY: "zen", ANTHROPIC_API_KEY: "own" },
      }),
    ).toEqual({ key: "zen", source: "ZENGINE_API_KEY" });
    expect(await resolveApiKey({ host, dataDir, env: { ANTHROPIC_API_KEY: "own" } })).toEqual({
      key: "own",
      source: "ANTHROPIC_API_KEY",
    });
    expect(await resolveApiKey({ host, dataDir, env: {} })).toEqual({
      key: "from-file",
      source: "auth.json",
    });
    expect(await resolveApiKey({ host: "api.openai.com", dataDir, env: {} })).toBeUndefined();
  });

  it("never hands a provider's variable to another host", async () => {
    const env = { ANTHROPIC_API_KEY: "a", OPENAI_API_KEY: "o", OPENROUTER_API_KEY: "r" };
    expect(await resolveApiKey({ host: "127.0.0.1:8080", env })).toBeUndefined();
    expect(await resolveApiKey({ host: "evil.example", env })).toBeUndefined();
    expect((await resolveApiKey({ host: "openrouter.ai", env }))?.key).toBe("r");
    expect((await resolveApiKey({ host: "api.openai.com", env }))?.key).toBe("o");
    expect(providerKeyVariable("anthropic.com.evil.example")).toBeUndefined();
    expect(providerKeyVariable("eu.api.anthropic.com")).toBe("ANTHROPIC_API_KEY");
  });
});

describe("auth.json", () => {
  it("stores keys per host (port included) with mode 0600 and keeps the other hosts", async () => {
    await saveApiKey(dataDir, "127.0.0.1:1111", "key-a");
    await saveApiKey(dataDir, "127.0.0.1:2222", "key-b");
    await saveApiKey(dataDir, "127.0.0.1:1111", "key-a2");
    expect(await readAuthFile(dataDir)).toEqual({
      "127.0.0.1:1111": { apiKey: "key-a2" },
      "127.0.0.1:2222": { apiKey: "key-b" },
    });
    expect((await stat(join(dataDir, "auth.json"))).mode & 0o777).toBe(0o600);
    expect((await resolveApiKey({ host: "127.0.0.1:2222", dataDir, env: {} }))?.key).toBe("key-b");
    expect(await resolveApiKey({ host: "127.0.0.1:3333", dataDir, env: {} })).toBeUndefined();
  });

  it("reports a damaged file instead of overwriting it", async () => {
    await writeFile(join(dataDir, "auth.json"), "{ not json");
    await expect(readAuthFile(dataDir)).rejects.toMatchObject({ code: "authFile" });
    await expect(saveApiKey(dataDir, "h", "k")).rejects.toBeInstanceOf(LlmError);
    expect(await readFile(join(dataDir, "auth.json"), "utf8")).toBe("{ not json");
    const client = createModelClient(
      { kind: "openai", baseUrl: "http://127.0.0.1:9/v1" },
      { env: {}, dataDir },
    );
    const events = await collect(client.stream(request()));
    expect(events).toEqual([
      {
        type: "error",
        error: { kind: "authentication", message: expect.stringMatching(/auth\.json is damaged/) },
      },
    ]);
  });
});

describe("a key never leaves its host", () => {
  it("sends each host only its own auth.json key, fallbacks included", async () => {
    const a = await startFakeProvider({ script: [reply.fault({ status: 404 }), reply.text("a")] });
    const b = await startFakeProvider({ script: [reply.text("b")] });
    servers.push(a, b);
    const hostOf = (url: string) => new URL(url).host;
    await saveApiKey(dataDir, hostOf(a.url), "key-for-a");
    await saveApiKey(dataDir, hostOf(b.url), "key-for-b");
    const env = { ANTHROPIC_API_KEY: "anthropic-only", OPENAI_API_KEY: "openai-only" };
    const clientA = createModelClient(
      { kind: "anthropic", baseUrl: a.url, fallbacks: ["other-model"] },
      { env, dataDir },
    );
    const clientB = createModelClient(
      { kind: "openai", baseUrl: b.openaiBaseUrl },
      { env, dataDir },
    );
    await collect(clientA.stream(request()));
    await collect(clientB.stream(request()));
    expect(a.requests.map((r) => r.apiKey)).toEqual(["key-for-a", "key-for-a"]);
    expect(b.requests.map((r) => r.apiKey)).toEqual(["key-for-b"]);
    const sent = JSON.stringify([...a.requests, ...b.requests].map((r) => r.headers));
    expect(sent).not.toContain("anthropic-only");
    expect(sent).not.toContain("openai-only");
  });
});
