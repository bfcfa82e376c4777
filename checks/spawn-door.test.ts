import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { checkSpawnDoor, isTestPath, spawnImportsIn } from "./spawn-door.js";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");

describe("the child-process door on this repository", () => {
  it("holds: nothing outside the door, tests and the allow-list imports a spawning module", () => {
    const report = checkSpawnDoor(repoRoot);
    expect(report.outside.map((i) => `${i.file}:${i.line} ${i.module}`)).toEqual([]);
    expect(report.stale).toEqual([]);
  });
});

describe("spawnImportsIn", () => {
  const lines = (text: string) => spawnImportsIn("m.ts", text).map((i) => `${i.line} ${i.module}`);

  it("finds static, dynamic, require, re-export and getBuiltinModule imports", () => {
    const text = [
      `import { spawn } from "node:child_process";`,
      `import * as cp from "child_process";`,
      `const m = await import("node:child_process");`,
      `const r = require("cross-spawn");`,
      `export { execFile } from "node:child_process";`,
      `const b = process.getBuiltinModule("node:child_process");`,
      `import "execa";`,
      `const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");`,
      `import cp2 = require("child_process");`,
    ].join("\n");
    expect(lines(text)).toEqual([
      "1 node:child_process",
      "2 child_process",
      "3 node:child_process",
      "4 cross-spawn",
      "5 node:child_process",
      "6 node:child_process",
      "7 execa",
      "8 @modelcontextprotocol/sdk/client/stdio.js",
      "9 child_process",
    ]);
  });

  it("leaves type-only imports and other modules alone", () => {
    const text = [
      `import type { ChildProcess } from "node:child_process";`,
      `import { type ChildProcess as C } from "node:child_process";`,
      `export type { SpawnOptions } from "node:child_process";`,
      `import { readFile } from "node:fs";`,
      `const s = "node:child_process";`,
    ].join("\n");
    expect(lines(text)).toEqual([]);
  });
});

describe("isTestPath", () => {
  it("knows tests, their support, benches and scripts from shipped code", () => {
    for (const path of [
      "packages/a/src/x.test.ts",
      "packages/a/test/harness.ts",
      "packages/a/src/test-support/spawner.ts",
      "apps/cli/src/e2e/cli.test.helpers.ts",
      "packages/a/bench/x.ts",
      "apps/cli/scripts/bundle.mjs",
    ])
      expect([path, isTestPath(path)]).toEqual([path, true]);
    for (const path of ["packages/a/src/testing.ts", "packages/a/src/test.ts"])
      expect([path, isTestPath(path)]).toEqual([path, false]);
  });
});

describe("planted violations", () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "zeng-spawn-door-"));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));
  const file = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };

  it("names a spawn outside the door, allows the door and tests, and reports stale entries", () => {
    file("packages/engine/src/hooks/run.ts", `import { spawn } from "node:child_process";\n`);
    file("apps/web/src/bin.ts", `\n\nconst cp = await import("child_process");\n`);
    file("packages/host/src/process/door.ts", `import { spawn } from "node:child_process";\n`);
    file("packages/host/src/process/door.test.ts", `import { spawn } from "node:child_process";\n`);
    const report = checkSpawnDoor(root, {
      "packages/host/src/process/door.ts": "the door",
      "packages/host/src/gone.ts": "removed since",
    });
    expect(report.outside.map((i) => `${i.file}:${i.line} ${i.module}`)).toEqual([
      "packages/engine/src/hooks/run.ts:1 node:child_process",
      "apps/web/src/bin.ts:3 child_process",
    ]);
    expect(report.stale).toEqual(["packages/host/src/gone.ts"]);
  });
});
