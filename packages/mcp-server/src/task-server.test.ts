import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { createEngine, type SessionOverrides } from "@z-engine/engine";
import { createTestEngine, reply, type TestEngine } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { createTaskServer } from "./task-server.js";

let t: TestEngine<typeof createEngine> | undefined;
let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  await t?.dispose();
  client = undefined;
  t = undefined;
});

/** The SDK's own client, connected in memory to a task server over a headless test engine. */
async function connect(session: SessionOverrides) {
  t = await createTestEngine({
    createEngine,
    files: { "a.txt": "old\n" },
    script: [],
    engine: { headless: true },
  });
  const server = createTaskServer({
    engine: t.engine,
    folder: t.repo.root,
    dataDir: t.home,
    session,
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  client = new Client({ name: "test-agent", version: "1.0.0" });
  await client.connect(clientSide);
  return { t, client };
}

const textOf = (result: Record<string, unknown>) =>
  (result.content as Array<{ type: string; text?: string }>).map((c) => c.text ?? "").join("");

describe("the task server, driven by the MCP SDK's client", () => {
  it("lists task and reply", async () => {
    const { client } = await connect({});
    const tools = await client.listTools();
    expect(tools.tools.map((tool) => tool.name).sort()).toEqual(["reply", "task"]);
  });

  it("runs a task that writes a new file and reports it, then continues it with reply", async () => {
    const { t, client } = await connect({ mode: "acceptEdits" });
    const file = join(t.repo.root, "b.txt");
    t.model.push(reply.toolCall("Write", { file_path: file, content: "new\n" }));
    t.model.push(reply.text("Wrote b.txt."));
    const result = await client.callTool({
      name: "task",
      arguments: { prompt: `Write ${file}` },
    });
    expect(result.isError).toBe(false);
    expect(textOf(result)).toContain("Wrote b.txt.");
    const structured = result.structuredContent as { sessionId: string; changedFiles: string[] };
    expect(structured.changedFiles).toEqual(["b.txt"]);
    expect(await readFile(file, "utf8")).toBe("new\n");

    t.model.push(reply.text("Still new."));
    const next = await client.callTool({
      name: "reply",
      arguments: { session_id: structured.sessionId, prompt: "and now?" },
    });
    expect(textOf(next)).toContain("Still new.");
    expect((next.structuredContent as { sessionId: string }).sessionId).toBe(structured.sessionId);
  });

  it("changes no file when the folder's settings allow nothing (ask, headless)", async () => {
    const { t, client } = await connect({});
    const file = join(t.repo.root, "c.txt");
    t.model.push(reply.toolCall("Write", { file_path: file, content: "new\n" }));
    t.model.push(reply.text("I could not write it."));
    const result = await client.callTool({ name: "task", arguments: { prompt: `Write ${file}` } });
    expect((result.structuredContent as { changedFiles: string[] }).changedFiles).toEqual([]);
    await expect(stat(file)).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("caps a caller's mode by the server's: bypass asked under ask stays ask", async () => {
    const { t, client } = await connect({ mode: "plan" });
    t.model.push(reply.text("Planned."));
    const result = await client.callTool({
      name: "task",
      arguments: { prompt: "plan it", permission_mode: "bypass" },
    });
    expect((result.structuredContent as { mode: string }).mode).toBe("plan");
  });

  it("refuses a relative cwd with a clear error", async () => {
    const { client } = await connect({});
    const result = await client.callTool({
      name: "task",
      arguments: { prompt: "x", cwd: "rel/dir" },
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("cwd must be an absolute path");
  });
});
