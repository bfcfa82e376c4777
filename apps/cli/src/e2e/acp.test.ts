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

/** The client capabilities these tests offer (ACP's `ClientCapabilities`, in part). */
interface Capabilities {
  readonly fs?: { readonly readTextFile?: boolean; readonly writeTextFile?: boolean };
  readonly terminal?: boolean;
}

async function promptOnce(
  editor: AcpTestClient,
  cwd: string,
  text: string,
  clientCapabilities: Capabilities = {},
) {
  await editor.agent.request("initialize", {
    protocolVersion: PROTOCOL_VERSION,
    clientCapabilities,
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

  it("with the client's fs, Read sees the editor's unsaved buffer and the Edit lands in the editor", async () => {
    w = await world({ format: "anthropic", files: { "a.txt": "on disk\n" } });
    const file = join(w.repo.root, "a.txt");
    w.provider.push(main(reply.toolCall("Read", { file_path: file })));
    w.provider.push(
      main(
        reply.toolCall("Edit", { file_path: file, old_string: "unsaved", new_string: "edited" }),
      ),
    );
    w.provider.push(main(reply.text("Edited.")));
    const editor = startAgent(w, () => "allow_once");
    editor.buffers.set(file, "unsaved buffer\n");
    const { response } = await promptOnce(editor, w.repo.root, `Fix ${file}`, {
      fs: { readTextFile: true, writeTextFile: true },
    });
    expect(response.stopReason).toBe("end_turn");
    expect(JSON.stringify(w.mainRequests()[1]?.body)).toContain("unsaved buffer");
    expect(editor.writes).toEqual([{ path: file, content: "edited buffer\n" }]);
    expect(await readFile(file, "utf8")).toBe("on disk\n");
  });

  it("with the client's terminal, Bash runs in a client terminal and its output reaches the model", async () => {
    w = await world({ format: "anthropic", files: { "a.txt": "a\n" } });
    w.provider.push(main(reply.toolCall("Bash", { command: "echo from-the-terminal" })));
    w.provider.push(main(reply.text("Ran it.")));
    const editor = startAgent(w, () => "allow_once");
    const { sessionId, response } = await promptOnce(editor, w.repo.root, "Run echo", {
      terminal: true,
    });
    expect(response.stopReason).toBe("end_turn");
    const ran = editor.terminals.all.map((c) => [c.request.command, ...(c.request.args ?? [])]);
    expect(ran.flat().join(" ")).toContain("echo from-the-terminal");
    expect(JSON.stringify(w.mainRequests()[1]?.body)).toContain("from-the-terminal");
    const terminals = editor
      .updatesOf(sessionId)
      .flatMap((u) => (u.sessionUpdate === "tool_call_update" ? (u.content ?? []) : []))
      .filter((c) => c.type === "terminal");
    expect(terminals.length).toBeGreaterThan(0);
  });
});
