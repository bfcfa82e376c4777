import { type ChildProcess, spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { processAlive, waitForProcessExit } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { baseEnv, Opened, tempDir, textOf } from "./helpers.js";

// The published reference servers, started as a user would: their installed bin commands.
const bin = (name: string) =>
  fileURLToPath(new URL(`../node_modules/.bin/${name}`, import.meta.url));
const opened = new Opened();
const children: ChildProcess[] = [];
afterEach(async () => {
  await opened.closeAll();
  for (const child of children.splice(0)) child.kill();
});
const signal = () => new AbortController().signal;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

describe("the reference servers", { timeout: 60_000 }, () => {
  it("server-everything over stdio: tools, structured results, resources, prompts, no sampling tools", async () => {
    const c = opened.open({
      name: "everything",
      type: "stdio",
      command: bin("mcp-server-everything"),
      args: ["stdio"],
    });
    await c.start();
    expect(c.state).toBe("ready");
    const names = c.tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["echo", "get-sum", "get-tiny-image"]));
    // Z Engine advertises neither sampling nor elicitation, so the server does not offer
    // the tools that would need them.
    expect(names).not.toContain("trigger-sampling-request");
    expect(names).not.toContain("trigger-elicitation-request");
    expect(textOf(await c.callTool("echo", { message: "hello" }, { signal: signal() }))).toBe(
      "Echo: hello",
    );
    expect(textOf(await c.callTool("get-sum", { a: 2, b: 5 }, { signal: signal() }))).toContain(
      "7",
    );
    const image = await c.callTool("get-tiny-image", {}, { signal: signal() });
    expect(image.content.some((b) => b.type === "image")).toBe(true);
    expect((await c.listResources(signal())).length).toBeGreaterThan(0);
    expect((await c.listPrompts(signal())).length).toBeGreaterThan(0);
    const pid = c.pid as number;
    await c.close();
    expect(await waitForProcessExit(pid)).toBe(true);
  });

  it("server-everything over streamable HTTP", async () => {
    const port = await freePort();
    const child = spawn(bin("mcp-server-everything"), ["streamableHttp"], {
      env: { ...baseEnv(), PORT: String(port) },
      stdio: ["ignore", "ignore", "pipe"],
    });
    children.push(child);
    await new Promise<void>((resolve, reject) => {
      let err = "";
      child.stderr?.on("data", (chunk: Buffer) => {
        err += chunk.toString();
        if (err.includes(`listening on port ${port}`)) resolve();
      });
      child.on("exit", (code) => reject(new Error(`exited ${code}: ${err}`)));
    });
    const c = opened.open({
      name: "everything-http",
      type: "http",
      url: `http://127.0.0.1:${port}/mcp`,
    });
    await c.start();
    expect(c.state).toBe("ready");
    expect(textOf(await c.callTool("echo", { message: "via http" }, { signal: signal() }))).toBe(
      "Echo: via http",
    );
  });

  it("server-filesystem reads the folder it was given, and refuses others", async () => {
    const folder = tempDir();
    writeFileSync(join(folder, "notes.txt"), "remember the milk\n");
    const c = opened.open({
      name: "files",
      type: "stdio",
      command: bin("mcp-server-filesystem"),
      args: [folder],
    });
    await c.start();
    expect(c.state).toBe("ready");
    const read = await c.callTool(
      "read_text_file",
      { path: join(folder, "notes.txt") },
      { signal: signal() },
    );
    expect(textOf(read)).toContain("remember the milk");
    const outside = await c.callTool(
      "read_text_file",
      { path: "/etc/hostname" },
      { signal: signal() },
    );
    expect(outside.isError).toBe(true);
    const pid = c.pid as number;
    expect(await processAlive(pid)).toBe(true);
  });
});
