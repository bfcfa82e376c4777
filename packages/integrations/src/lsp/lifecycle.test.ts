import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { plainFileReader } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { errorsAfterWrite } from "./after-write.js";
import { LspManager } from "./manager.js";
import { queryLsp } from "./query.js";
import { testSpawner } from "../test-support/spawner.js";
import { bareEnv, project, SERVER_BIN, SLOW_WRAPPER, serverEnv } from "./test-support/fixtures.js";

const signal = new AbortController().signal;
const PY = {
  "app.py": "def double(x: int) -> int:\n    return x * 2\n\n\ntotal: int = double(2)\n",
};
const cleanups: (() => Promise<void>)[] = [];

async function setUp(options: Partial<ConstructorParameters<typeof LspManager>[0]> = {}) {
  const p = await project(PY);
  const env = options.env ?? serverEnv();
  const manager = new LspManager({
    root: p.root,
    env,
    spawn: testSpawner(p.root, env),
    files: plainFileReader(),
    ...options,
  });
  cleanups.push(async () => {
    await manager.stopAll();
    await p.cleanup();
  });
  return { p, manager, py: p.path("app.py") };
}

afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

describe("starting servers", () => {
  it("reports a server that is not installed, once looked up", async () => {
    const { manager, py } = await setUp({ env: bareEnv() });
    const answer = await queryLsp(
      manager,
      { operation: "hover", path: py, symbol: "double" },
      signal,
    );
    expect(answer).toEqual({
      ok: false,
      error:
        "No language server is installed for .py files (looked for basedpyright-langserver, pyright-langserver in the project's node_modules/.bin and on PATH).",
    });
    expect(await manager.route(py)).toBe(await manager.route(join("/elsewhere", "other.py")));
    expect(manager.status()).toEqual([]);
    const other = await queryLsp(
      manager,
      { operation: "hover", path: join("/x", "a.txt"), line: 1 },
      signal,
    );
    expect(other).toEqual({ ok: false, error: "No language server is configured for .txt files." });
  });

  it("remembers a failed start with its reason", async () => {
    const { manager, p } = await setUp({
      servers: {
        broken: {
          command: "/bin/sh",
          args: ["-c", "echo cannot start >&2; exit 3"],
          extensions: ["zz"],
        },
      },
    });
    await writeFile(p.path("a.zz"), "x");
    const first = await queryLsp(
      manager,
      { operation: "documentSymbols", path: p.path("a.zz") },
      signal,
    );
    expect(first).toEqual({
      ok: false,
      error: "broken failed to start: broken exited while starting: cannot start",
    });
    expect(manager.status()).toEqual([
      {
        name: "broken",
        state: "failed",
        restarts: 0,
        reason: "broken failed to start: broken exited while starting: cannot start",
      },
    ]);
    const again = await queryLsp(
      manager,
      { operation: "documentSymbols", path: p.path("a.zz") },
      signal,
    );
    expect(again).toEqual({
      ok: false,
      error: "broken failed to start: broken exited while starting: cannot start",
    });
  });

  it("reports no server once all are stopped, and starts none after", async () => {
    const { manager, py } = await setUp();
    const live = await manager.serverFor(py);
    expect(manager.status().map((s) => s.state)).toEqual(["running"]);
    await manager.stopAll();
    await live.client.ended;
    expect(manager.status()).toEqual([]);
    await expect(manager.serverFor(py)).rejects.toThrow("the session is closing");
    expect(manager.status()).toEqual([]);
  }, 60_000);

  it("restarts a crashed server at most three times", async () => {
    const { manager, py } = await setUp();
    for (let crash = 1; crash <= 4; crash++) {
      const answer = await queryLsp(manager, { operation: "documentSymbols", path: py }, signal);
      expect(answer).toEqual({
        ok: true,
        text: "function double (line 1)\n  variable x (line 1)\nvariable total (line 5)",
      });
      const live = await manager.serverFor(py);
      process.kill(live.client.pid ?? -1, "SIGKILL");
      await live.client.ended;
      expect(manager.status().map((s) => [s.state, s.restarts])).toEqual(
        crash <= 3 ? [] : [["failed", 3]],
      );
    }
    const after = await queryLsp(manager, { operation: "documentSymbols", path: py }, signal);
    expect(after.ok).toBe(false);
    expect(!after.ok && after.error).toMatch(
      /^pyright exited \(SIGKILL\).*; not restarted again \(crashed 4 times, 3 restarts allowed\)$/,
    );
  }, 120_000);
});

describe("errors after a write", () => {
  it("starts a server that is not running in the background and adds nothing yet", async () => {
    const { manager, py } = await setUp();
    expect(await errorsAfterWrite(manager, py, signal)).toBeNull();
    expect(manager.status().map((s) => s.state)).toEqual(["starting"]);
    expect(await errorsAfterWrite(manager, py, signal)).toBeNull();
    const live = await manager.serverFor(py);
    await live.docs.sync(py);
    expect(live.docs.isOpen(py)).toBe(true);
  }, 60_000);

  it("appends errors but not warnings from pyright", async () => {
    const { manager, py } = await setUp();
    const live = await manager.serverFor(py);
    await queryLsp(manager, { operation: "diagnostics", path: py }, signal);
    expect(await live.client.whenIdle(30_000)).toBe(true);
    await writeFile(
      py,
      'def double(x: int) -> int:\n    return x * 2\n\n\ntotal: int = "two"\n1 + 1\n',
    );
    const errors = await errorsAfterWrite(manager, py, signal, 30_000);
    expect(errors).toMatch(
      /^app\.py:5:14: error: Type "Literal\['two'\]" is not assignable to declared type "int".*\[Pyright reportAssignmentType\]$/,
    );
  }, 60_000);

  it("adds nothing, at once, while the server is indexing", async () => {
    const { manager, py } = await setUp({
      servers: {
        indexing: {
          command: process.execPath,
          args: [SLOW_WRAPPER, join(SERVER_BIN, "pyright-langserver"), "--stdio"],
          extensions: ["py"],
          env: { SLOW_DIAGNOSTICS_MS: "0", OPEN_PROGRESS_TOKEN: "indexing" },
        },
      },
    });
    const live = await manager.serverFor(py);
    await queryLsp(manager, { operation: "documentSymbols", path: py }, signal);
    expect(live.client.busy).toBe(true);
    expect(live.docs.isOpen(py)).toBe(true);
    await writeFile(py, 'total: int = "two"\n');
    const started = performance.now();
    expect(await errorsAfterWrite(manager, py, signal, 2000)).toBeNull();
    expect(performance.now() - started).toBeLessThan(500);
  }, 60_000);

  it("waits at most the bound on a slow server", async () => {
    const { manager, py } = await setUp({
      servers: {
        slowpy: {
          command: process.execPath,
          args: [SLOW_WRAPPER, join(SERVER_BIN, "pyright-langserver"), "--stdio"],
          extensions: ["py"],
          env: { SLOW_DIAGNOSTICS_MS: "20000" },
        },
      },
    });
    const live = await manager.serverFor(py);
    expect(live.client.spec.name).toBe("slowpy");
    await queryLsp(manager, { operation: "documentSymbols", path: py }, signal);
    expect(await live.client.whenIdle(30_000)).toBe(true);
    await writeFile(py, 'total: int = "two"\n');
    const started = performance.now();
    expect(await errorsAfterWrite(manager, py, signal, 2000)).toBeNull();
    const waited = performance.now() - started;
    expect(waited).toBeGreaterThanOrEqual(1990);
    expect(waited).toBeLessThan(2500);
  }, 60_000);
});
