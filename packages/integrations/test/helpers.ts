import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MCP_TEST_SERVER } from "@z-engine/testkit";
import { afterAll } from "vitest";
import { McpConnection, type McpServerSpec } from "../src/index.js";
import { testSpawner } from "../src/test-support/spawner.js";

const made: string[] = [];
// Each test file that makes folders removes them once its tests ran (its servers are closed).
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh temp folder, removed after the test file. */
export const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "zmcp-"));
  made.push(dir);
  return dir;
};

/** The environment servers get: the PATH and HOME only, plus what a test adds. */
export const baseEnv = (extra: Record<string, string> = {}) => ({
  PATH: process.env.PATH ?? "",
  HOME: process.env.HOME ?? "",
  ...extra,
});

/** A stdio spec for the test server. */
export function testServer(name = "test", args: string[] = [], extra: Partial<McpServerSpec> = {}) {
  return {
    name,
    type: "stdio",
    command: process.execPath,
    args: [MCP_TEST_SERVER, ...args],
    ...extra,
  } as McpServerSpec;
}

/** Connections opened by a test, closed after it. */
export class Opened {
  readonly all: McpConnection[] = [];
  open(spec: McpServerSpec, env = baseEnv(), onChange?: () => void): McpConnection {
    const c = new McpConnection({
      spec,
      env,
      spawn: testSpawner(tempDir(), env),
      ...(onChange ? { onChange } : {}),
    });
    this.all.push(c);
    return c;
  }
  async closeAll(): Promise<void> {
    await Promise.all(this.all.splice(0).map((c) => c.close()));
  }
}

/** Resolves once `check` holds, polling a file or state every 20 ms (rejects after 10 s). */
export async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The lines of a log file so far ("" when missing). */
export const lines = (file: string) => {
  try {
    return readFileSync(file, "utf8").split("\n").filter(Boolean);
  } catch {
    return [];
  }
};

/** The text of a result's content blocks. */
export const textOf = (r: { content: readonly { type: string; text?: string }[] }) =>
  r.content.map((c) => (c.type === "text" ? c.text : `[${c.type}]`)).join("\n");
