import {
  type ClientCapabilities,
  PROTOCOL_VERSION,
  type SessionUpdate,
} from "@agentclientprotocol/sdk";
import { createEngine } from "@z-engine/engine";
import {
  type AcpTestClient,
  connectAcpTestClient,
  createTestEngine,
  reply,
  type TestEngine,
} from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { createAcpAgent } from "./agent.js";

let t: TestEngine<typeof createEngine> | undefined;
let editor: AcpTestClient | undefined;
async function tearDown() {
  await editor?.close();
  await t?.dispose();
  editor = undefined;
  t = undefined;
}
afterEach(tearDown);

async function setUp(files: Record<string, string> = { "a.txt": "hello\n" }) {
  t = await createTestEngine({ createEngine, files, script: [] });
  editor = connectAcpTestClient(createAcpAgent({ engine: t.engine, folder: t.repo.root }));
  await editor.agent.request("initialize", {
    protocolVersion: PROTOCOL_VERSION,
    clientCapabilities: {},
  });
  return { t, editor };
}

const kinds = (updates: SessionUpdate[]) => updates.map((u) => u.sessionUpdate);

describe("the ACP agent in process", () => {
  it("answers initialize with its version, capabilities and auth methods", async () => {
    t = await createTestEngine({ createEngine, files: { "a.txt": "a\n" }, script: [] });
    editor = connectAcpTestClient(createAcpAgent({ engine: t.engine }));
    const init = await editor.agent.request("initialize", {
      protocolVersion: 7,
      clientCapabilities: { fs: { readTextFile: true } },
    });
    expect(init.protocolVersion).toBe(PROTOCOL_VERSION);
    expect(init.agentCapabilities).toMatchObject({
      loadSession: true,
      promptCapabilities: { image: true, embeddedContext: true },
      mcpCapabilities: { http: true, sse: true },
    });
    expect(init.authMethods?.map((m) => m.id)).toEqual(["zeng-api-key"]);
  });

  it("streams a prompt's answer, then ends the turn", async () => {
    const { t, editor } = await setUp();
    const created = await editor.agent.request("session/new", { cwd: t.repo.root, mcpServers: [] });
    expect(created.modes?.currentModeId).toBe("ask");
    t.model.push(reply.text("Hello from the engine."));
    const response = await editor.agent.request("session/prompt", {
      sessionId: created.sessionId,
      prompt: [{ type: "text", text: "hi" }],
    });
    expect(response.stopReason).toBe("end_turn");
    expect(response._meta?.["z-engine"]).toMatchObject({ outcome: "completed" });
    const updates = editor.updatesOf(created.sessionId);
    const text = updates
      .flatMap((u) =>
        u.sessionUpdate === "agent_message_chunk" && u.content.type === "text"
          ? [u.content.text]
          : [],
      )
      .join("");
    expect(text).toBe("Hello from the engine.");
    expect(kinds(updates)).toContain("available_commands_update");
  });

  it("set_mode switches the engine's permission mode and reports current_mode_update", async () => {
    const { t, editor } = await setUp();
    const { sessionId } = await editor.agent.request("session/new", {
      cwd: t.repo.root,
      mcpServers: [],
    });
    const from = editor.updatesOf(sessionId).length;
    await editor.agent.request("session/set_mode", { sessionId, modeId: "plan" });
    const update = await editor.waitForUpdate((u) => u.sessionUpdate === "current_mode_update", {
      from,
    });
    expect(update).toMatchObject({ currentModeId: "plan" });
    await expect(
      editor.agent.request("session/set_mode", { sessionId, modeId: "nonsense" }),
    ).rejects.toThrow(/unknown mode/);
  });
});
