import { readFile } from "node:fs/promises";
import { join } from "node:path";
import {
  type AcpTestClient,
  connectAcpTestClient,
  reply,
  type SpawnedAgent,
  spawnAcpAgent,
} from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { MAIN, main, type World, world } from "./cli.test.helpers.js";

let w: World | undefined;
let agent: SpawnedAgent | undefined;
let editor: AcpTestClient | undefined;
afterEach(async () => {
  await editor?.close();
  agent?.child.kill();
  await w?.dispose();
  w = editor = agent = undefined;
});

/** `zeng acp` as a child over stdio, driven by the ACP SDK's client side, as an editor does. */
function startAgent(w: World, onPermission: (kinds: string[]) => string) {
  agent = spawnAcpAgent(process.execPath, [MAIN, "acp"], { env: w.env, cwd: w.repo.root });
  editor = connectAcpTestClient(agent.stream, {
    onPermission: (request) => {
      const kinds = request.options.map((o) => o.kind);
      const kind = onPermission(kinds);
      return request.options.find((o) => o.kind === kind)?.optionId ?? "cancelled";
    },
  });
  return editor;
}

/** ACP protocol version 1 (what the SDK 2.4.0 speaks). */
const PROTOCOL_VERSION = 1;
type SessionUpdate = AcpTestClient["notifications"][number]["update"];

const diffs = (updates: SessionUpdate[]) =>
  updates.flatMap((u) =>
    u.sessionUpdate === "tool_call_update" || u.sessionUpdate === "tool_call"
      ? (u.content ?? []).filter((c) => c.type === "diff")
      : [],
  );

describe("zeng acp over stdio", () => {
  it("opens a session in an untrusted folder, asks for trust and for a write, shows the diff", async () => {
    w = await world({ format: "anthropic", files: { "a.txt": "a\n" } });
    const file = join(w.repo.root, "fixed.txt");
    w.provider.push(main(reply.toolCall("Write", { file_path: file, content: "fixed\n" })));
    w.provider.push(main(reply.text("Wrote it.")));
    const asked: string[][] = [];
    const editor = startAgent(w, (kinds) => {
      asked.push(kinds);
      return "allow_always";
    });
    const init = await editor.agent.request("initialize", {
      protocolVersion: PROTOCOL_VERSION,
      clientCapabilities: {},
    });
    expect(init.protocolVersion).toBe(PROTOCOL_VERSION);
    const created = await editor.agent.request("session/new", { cwd: w.repo.root, mcpServers: [] });
    const response = await editor.agent.request("session/prompt", {
      sessionId: created.sessionId,
      prompt: [{ type: "text", text: `Write ${file}` }],
    });
    expect(response.stopReason).toBe("end_turn");
    expect(asked.length).toBeGreaterThanOrEqual(1);
    expect(await readFile(file, "utf8")).toBe("fixed\n");
    expect(diffs(editor.updatesOf(created.sessionId))).toContainEqual(
      expect.objectContaining({ type: "diff", path: file, newText: "fixed\n" }),
    );
  });
});
