import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { reply } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import {
  AcpRig,
  type AnswerByKind,
  initialize,
  PROTOCOL_VERSION,
  promptOnce,
  promptText,
  type SessionUpdate,
} from "./acp.test.helpers.js";
import { main, type World } from "./cli.test.helpers.js";

const rig = new AcpRig();
afterEach(() => rig.dispose());

/** `zeng acp` over stdio, each permission request answered with the option `answer` picks. */
const startAgent = (w: World, answer: AnswerByKind) => rig.start(w, answer).editor;

const diffs = (updates: SessionUpdate[]) =>
  updates.flatMap((u) =>
    u.sessionUpdate === "tool_call_update" || u.sessionUpdate === "tool_call"
      ? (u.content ?? []).filter((c) => c.type === "diff")
      : [],
  );

const SETTINGS = '[permissions]\nallow = ["Write"]\n';

describe("zeng acp over stdio", () => {
  it("asks for a write with the card's options; allow always lets it land, and the update shows the diff", async () => {
    const w = await rig.world({ format: "anthropic", files: { "a.txt": "a\n" } });
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
    const w = await rig.world({
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
    const w = await rig.world({
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
    const w = await rig.world({ format: "anthropic", files: { "a.txt": "on disk\n" } });
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
    const w = await rig.world({ format: "anthropic", files: { "a.txt": "a\n" } });
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

  it("set_mode to acceptEdits reports current_mode_update, and the next write lands without a request", async () => {
    const w = await rig.world({ format: "anthropic", files: { "a.txt": "a\n" } });
    const file = join(w.repo.root, "fixed.txt");
    w.provider.push(main(reply.toolCall("Write", { file_path: file, content: "fixed\n" })));
    w.provider.push(main(reply.text("Wrote it.")));
    let asks = 0;
    const editor = startAgent(w, () => {
      asks += 1;
      return "reject_once";
    });
    await initialize(editor);
    const { sessionId } = await editor.agent.request("session/new", {
      cwd: w.repo.root,
      mcpServers: [],
    });
    const from = editor.notifications.length;
    await editor.agent.request("session/set_mode", { sessionId, modeId: "acceptEdits" });
    const update = await editor.waitForUpdate((u) => u.sessionUpdate === "current_mode_update", {
      from,
    });
    expect(update).toMatchObject({ currentModeId: "acceptEdits" });
    const response = await promptText(editor, sessionId, `Write ${file}`);
    expect(response.stopReason).toBe("end_turn");
    expect(asks).toBe(0);
    expect(await readFile(file, "utf8")).toBe("fixed\n");
  });

  it("with no key configured, initialize offers the key method and session/new and authenticate refuse with auth_required", async () => {
    const w = await rig.world({ format: "anthropic", files: { "a.txt": "a\n" } });
    const { ZENGINE_API_KEY: _, ...noKey } = w.env;
    const { editor } = rig.start(w, () => "allow_once", noKey);
    const init = await editor.agent.request("initialize", {
      protocolVersion: PROTOCOL_VERSION,
      clientCapabilities: {},
    });
    expect(init.authMethods?.map((m) => m.id)).toContain("zeng-api-key");
    const refused = { code: -32000, message: expect.stringContaining("No API key") };
    await expect(
      editor.agent.request("session/new", { cwd: w.repo.root, mcpServers: [] }),
    ).rejects.toMatchObject(refused);
    await expect(
      editor.agent.request("authenticate", { methodId: "zeng-api-key" }),
    ).rejects.toMatchObject(refused);
    expect(w.mainRequests()).toEqual([]);
  });
});
