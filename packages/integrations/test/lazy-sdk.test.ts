import { execFile } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { baseEnv, lines, tempDir } from "./helpers.js";

const run = promisify(execFile);
const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

describe("the MCP SDK loads lazily", { timeout: 30_000 }, () => {
  it("importing the package loads none of it; the first server start does", async () => {
    const log = join(tempDir(), "sdk-loads");
    const script = `
      const mcp = await import(${JSON.stringify(here("../dist/index.js"))});
      const fs = await import("node:fs");
      console.log(fs.existsSync(process.env.SDK_LOG) ? "sdk loaded on import" : "nothing loaded");
      const cp = await import("node:child_process");
      const spawn = (r) => ({
        process: cp.spawn(r.program, r.args, { stdio: "pipe", detached: true }),
        signalGroup: () => false,
      });
      const c = new mcp.McpConnection({ spec: { name: "x", type: "stdio", command: "/no/such/program" }, env: {}, spawn });
      await c.start();
      console.log(c.state);
    `;
    const { stdout } = await run(
      process.execPath,
      [
        "--import",
        here("./fixtures/register-log-sdk-loads.mjs"),
        "--input-type=module",
        "-e",
        script,
      ],
      { env: { ...baseEnv(), SDK_LOG: log } },
    );
    expect(stdout).toBe("nothing loaded\nfailed\n");
    // The first start (even one that fails) loaded the SDK.
    const loaded = lines(log);
    expect(loaded.length).toBeGreaterThan(0);
    expect(loaded.every((url) => url.includes("/@modelcontextprotocol/sdk/"))).toBe(true);
  });
});
