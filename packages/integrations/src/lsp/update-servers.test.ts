import { plainFileReader } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { LspManager } from "./manager.js";
import { testSpawner } from "../test-support/spawner.js";
import { project, serverEnv } from "./test-support/fixtures.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

describe("updateServers (a settings edit)", { timeout: 60_000 }, () => {
  it("stops only the started server whose entry changed; the next use starts the new one", async () => {
    const p = await project({ "app.py": "total: int = 2\n" });
    const env = serverEnv();
    const manager = new LspManager({
      root: p.root,
      env,
      spawn: testSpawner(p.root, env),
      files: plainFileReader(),
    });
    cleanups.push(async () => {
      await manager.stopAll();
      await p.cleanup();
    });
    const py = p.path("app.py");
    const first = await manager.serverFor(py);
    const name = manager.status()[0]?.name ?? "";
    expect(["basedpyright", "pyright"]).toContain(name);

    // An entry for another server leaves the running one alone.
    const unrelated = { other: { command: "/bin/true", extensions: ["zz"] } };
    expect(await manager.updateServers(unrelated)).toEqual([]);
    expect((await manager.serverFor(py)).client.pid).toBe(first.client.pid);

    // Its own entry, now configured with other arguments: stopped, and started anew on next use.
    const command = name === "pyright" ? "pyright-langserver" : "basedpyright-langserver";
    const own = {
      ...unrelated,
      [name]: { command, args: ["--stdio", "--verbose"], extensions: ["py"] },
    };
    expect(await manager.updateServers(own)).toEqual([name]);
    expect(manager.status()).toEqual([]);
    const next = await manager.serverFor(py);
    expect(next.client.pid).not.toBe(first.client.pid);
    expect(manager.status().map((s) => s.state)).toEqual(["running"]);
  });
});
