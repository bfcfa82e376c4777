import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolvePaths } from "@z-engine/config";
import { createEngine, type Engine } from "@z-engine/engine";
import { createFixtureRepo, ScriptedModel } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";

// Engine.providerKey / storeProviderKey: what an ACP agent's authenticate asks.

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function engineWith(extra: Record<string, string>, own = false) {
  const home = await mkdtemp(join(tmpdir(), "zeng-key-home-"));
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: home,
    ZENGINE_HOME: join(home, "data"),
    ZENGINE_CONFIG_HOME: join(home, "config"),
    ...extra,
  };
  const repo = await createFixtureRepo({ files: { "a.txt": "a\n" } });
  const engine: Engine = await createEngine({
    paths: resolvePaths(env),
    env,
    homeDir: home,
    ...(own ? { clientFactory: () => new ScriptedModel([]) } : {}),
  });
  cleanup.push(async () => {
    await engine.shutdown();
    await repo.dispose();
    await rm(home, { recursive: true, force: true });
  });
  return { engine, repo, env };
}

describe("the provider key of a folder", () => {
  it("is missing, then found once stored in auth.json (0600) for the endpoint's host", async () => {
    const { engine, repo, env } = await engineWith({ ZENGINE_BASE_URL: "http://127.0.0.1:9/v1" });
    const before = await engine.providerKey(repo.root);
    expect(before).toEqual({
      needed: true,
      found: false,
      host: "127.0.0.1:9",
      sources: ["ZENGINE_API_KEY", "auth.json (127.0.0.1:9)"],
    });
    expect(await engine.storeProviderKey(repo.root, "sk-test-123456")).toBe("127.0.0.1:9");
    expect(await engine.providerKey(repo.root)).toMatchObject({ needed: true, found: true });
    const info = await stat(join(env.ZENGINE_HOME, "auth.json"));
    expect(info.mode & 0o777).toBe(0o600);
  });

  it("finds the provider's own variable for its own host, and ZENGINE_API_KEY for any", async () => {
    const own = await engineWith({ ANTHROPIC_API_KEY: "sk-ant-xyz" });
    expect(await own.engine.providerKey(own.repo.root)).toMatchObject({
      found: true,
      host: "api.anthropic.com",
      sources: ["ZENGINE_API_KEY", "ANTHROPIC_API_KEY", "auth.json (api.anthropic.com)"],
    });
    const other = await engineWith({
      ZENGINE_BASE_URL: "http://127.0.0.1:9/v1",
      ANTHROPIC_API_KEY: "sk-ant-xyz",
    });
    expect(await other.engine.providerKey(other.repo.root)).toMatchObject({ found: false });
  });

  it("needs no key when the host builds its clients", async () => {
    const own = await engineWith({}, true);
    expect(await own.engine.providerKey(own.repo.root)).toEqual({
      needed: false,
      found: true,
      sources: [],
    });
  });
});
