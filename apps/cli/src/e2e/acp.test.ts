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

async function promptOnce(editor: AcpTestClient, cwd: string, text: string) {
  await editor.agent.request("initialize", {
    protocolVersion: PROTOCOL_VERSION,
    clientCapabilities: {},
  });
  const created = await editor.agent.request("session/new", { cwd, mcpServers: [] });
  const response = await editor.agent.request("session/prompt", {
    sessionId: created.sessionId,
    prompt: [{ type: "text", text }],
  });
  return { sessionId: created.sessionId, response };
}

const SETTINGS = '[permissions]\nallow = ["Write"]\n';

describe("zeng acp over stdio", () => {
  it("asks for a write with the card's options; allow always lets it land, and the update shows the diff", async () => {
    w = await world({ format: "anthropic", files: { "a.txt": "a\n" } });
    const file = join(w.repo.root, "fixed.txt");
    w.provider.push(main(reply.toolCall("Write", { file_path: file, content: "fixed\n" })));
    w.provider.push(main(reply.text("Wrote it.")));
    const asked: string[][] = [];
    const editor = startAgent(w, (kinds) => {
      asked.push(kinds);
      return "allow_always";
    });
    const { sessionId, response } = await promptOnce(editor, w.repo.root, `Write ${file}`);
    expect(response.stopReason).toBe("end_turn");
    expect(asked).toEqual([expect.arrayContaining(["allow_once", "allow_always", "reject_once"])]);
    expect(await readFile(file, "utf8")).toBe("fixed\n");
    expect(diffs(editor.updatesOf(sessionId))).toContainEqual(
      expect.objectContaining({ type: "diff", path: file, newText: "fixed\n" }),
    );
  });

  it("an untrusted folder asks for trust first; trusted, its own settings apply (the write needs no ask)", async () => {
    w = await world({
      format: "anthropic",
      files: { "a.txt": "a\n", ".z-engine/settings.toml": SETTINGS },
    });
    const file = join(w.repo.root, "fixed.txt");
    w.provider.push(main(reply.toolCall("Write", { file_path: file, content: "fixed\n" })));
    w.provider.push(main(reply.text("Wrote it.")));
    const asked: string[] = [];
    const editor = startAgent(w, (kinds) => {
      asked.push(kinds.join(","));
      return "allow_always";
    });
    const { response } = await promptOnce(editor, w.repo.root, `Write ${file}`);
    expect(response.stopReason).toBe("end_turn");
    expect(asked).toEqual(["allow_always,reject_once"]);
    expect(await readFile(file, "utf8")).toBe("fixed\n");
  });

  it("not trusted, the folder's settings stay withheld: the write asks, and rejected, nothing lands", async () => {
    w = await world({
      format: "anthropic",
      files: { "a.txt": "a\n", ".z-engine/settings.toml": SETTINGS },
    });
    const file = join(w.repo.root, "fixed.txt");
    w.provider.push(main(reply.toolCall("Write", { file_path: file, content: "fixed\n" })));
    w.provider.push(main(reply.text("Could not.")));
    let asks = 0;
    const editor = startAgent(w, () => {
      asks += 1;
      return "reject_once";
    });
    const { response } = await promptOnce(editor, w.repo.root, `Write ${file}`);
    expect(response.stopReason).toBe("end_turn");
    expect(asks).toBe(2);
    await expect(readFile(file, "utf8")).rejects.toMatchObject({ code: "ENOENT" });
  });
});
