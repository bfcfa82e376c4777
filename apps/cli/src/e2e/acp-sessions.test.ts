import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { reply } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import {
  AcpRig,
  initialize,
  messageText,
  promptOnce,
  promptText,
  type SessionUpdate,
  stopAgent,
} from "./acp.test.helpers.js";
import { main, type World, world } from "./cli.test.helpers.js";

let w: World | undefined;
const rig = new AcpRig();
afterEach(async () => {
  await rig.dispose();
  await w?.dispose();
  w = undefined;
});

/** Every tool call among `updates` and the last status it was given. */
function toolStatuses(updates: SessionUpdate[]): Map<string, string | undefined> {
  const statuses = new Map<string, string | undefined>();
  for (const u of updates)
    if (u.sessionUpdate === "tool_call" || u.sessionUpdate === "tool_call_update")
      statuses.set(u.toolCallId, u.status ?? statuses.get(u.toolCallId));
  return statuses;
}

/** A first `zeng acp` that writes a file in one turn, then exits; resolves with the session. */
async function storedSession(w: World) {
  const file = join(w.repo.root, "fixed.txt");
  w.provider.push(main(reply.toolCall("Write", { file_path: file, content: "fixed\n" })));
  w.provider.push(main(reply.text("Wrote fixed.txt.")));
  const first = rig.start(w, () => "allow_once");
  const { sessionId, response } = await promptOnce(first.editor, w.repo.root, `Write ${file}`);
  expect(response.stopReason).toBe("end_turn");
  await first.editor.close();
  await stopAgent(first.agent);
  return { sessionId, file };
}

describe("zeng acp sessions over stdio", () => {
  it("session/load in a new agent replays the stored session as updates, then continues it", async () => {
    w = await world({ format: "anthropic", files: { "a.txt": "a\n" } });
    const { sessionId, file } = await storedSession(w);
    const { editor } = rig.start(w, () => "allow_once");
    await initialize(editor);
    await editor.agent.request("session/load", { sessionId, cwd: w.repo.root, mcpServers: [] });
    // The replay arrives before the response: the editor shows the conversation at once.
    const replayed = editor.updatesOf(sessionId);
    expect(replayed).toContainEqual(
      expect.objectContaining({
        sessionUpdate: "user_message_chunk",
        content: expect.objectContaining({ text: `Write ${file}` }),
      }),
    );
    expect(replayed).toContainEqual(
      expect.objectContaining({ sessionUpdate: "tool_call", kind: "edit" }),
    );
    expect(messageText(replayed)).toContain("Wrote fixed.txt.");
    expect([...toolStatuses(replayed).values()]).toEqual(["completed"]);
    w.provider.push(main(reply.text("It says fixed.")));
    const next = await promptText(editor, sessionId, "What did you write?");
    expect(next.stopReason).toBe("end_turn");
    expect(JSON.stringify(w.mainRequests().at(-1)?.body)).toContain("Wrote fixed.txt.");
  });

  it("session/resume continues the stored session without replaying it", async () => {
    w = await world({ format: "anthropic", files: { "a.txt": "a\n" } });
    const { sessionId } = await storedSession(w);
    const { editor } = rig.start(w, () => "allow_once");
    await initialize(editor);
    await editor.agent.request("session/resume", { sessionId, cwd: w.repo.root, mcpServers: [] });
    w.provider.push(main(reply.text("Still here.")));
    const next = await promptText(editor, sessionId, "Go on");
    expect(next.stopReason).toBe("end_turn");
    const kinds = editor.updatesOf(sessionId).map((u) => u.sessionUpdate);
    expect(kinds).not.toContain("user_message_chunk");
    expect(kinds).not.toContain("tool_call");
    expect(JSON.stringify(w.mainRequests().at(-1)?.body)).toContain("Wrote fixed.txt.");
  });

  it("session/load of a session that does not exist is refused", async () => {
    w = await world({ format: "anthropic", files: { "a.txt": "a\n" } });
    const { editor } = rig.start(w, () => "allow_once");
    await initialize(editor);
    await expect(
      editor.agent.request("session/load", {
        sessionId: "ses_nonexistent",
        cwd: w.repo.root,
        mcpServers: [],
      }),
    ).rejects.toThrow(/not found/i);
  });

  it("session/cancel mid-tool ends the turn as cancelled, and every tool call is answered", async () => {
    w = await world({ format: "anthropic", files: { "a.txt": "a\n" } });
    w.provider.push(main(reply.toolCall("Bash", { command: "sleep 30" })));
    const { editor } = rig.start(w, () => "allow_once");
    await initialize(editor);
    const { sessionId } = await editor.agent.request("session/new", {
      cwd: w.repo.root,
      mcpServers: [],
    });
    const prompt = promptText(editor, sessionId, "Wait a while");
    await editor.waitForUpdate(
      (u) => u.sessionUpdate === "tool_call_update" && u.status === "in_progress",
    );
    await editor.agent.notify("session/cancel", { sessionId });
    const response = await prompt;
    expect(response.stopReason).toBe("cancelled");
    expect([...toolStatuses(editor.updatesOf(sessionId)).values()]).toEqual(["failed"]);
    const log = await w.log(sessionId);
    const ends = log.filter((r) => r.kind === "turnEnded").map((r) => r.outcome);
    expect(ends).toEqual(["cancelled"]);
  });

  it("session/cancel while a permission request waits cancels the request, and nothing is written", async () => {
    w = await world({ format: "anthropic", files: { "a.txt": "a\n" } });
    const file = join(w.repo.root, "fixed.txt");
    w.provider.push(main(reply.toolCall("Write", { file_path: file, content: "fixed\n" })));
    const { editor } = rig.start(w);
    await initialize(editor);
    const { sessionId } = await editor.agent.request("session/new", {
      cwd: w.repo.root,
      mcpServers: [],
    });
    const prompt = promptText(editor, sessionId, `Write ${file}`);
    const pending = await editor.nextPermission();
    await editor.agent.notify("session/cancel", { sessionId });
    const response = await prompt;
    expect(response.stopReason).toBe("cancelled");
    expect(pending.cancelled).toBe(true);
    expect([...toolStatuses(editor.updatesOf(sessionId)).values()]).toEqual(["failed"]);
    await expect(readFile(file, "utf8")).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("when the editor closes its end, zeng acp closes its sessions and exits 0 by itself", async () => {
    w = await world({ format: "anthropic", files: { "a.txt": "a\n" } });
    w.provider.push(main(reply.text("Hello.")));
    const { agent, editor } = rig.start(w, () => "allow_once");
    const exited = new Promise<[number | null, string | null]>((resolve) =>
      agent.child.once("exit", (code, signal) => resolve([code, signal])),
    );
    await promptOnce(editor, w.repo.root, "hi");
    await editor.close();
    expect(await exited).toEqual([0, null]);
  });
});
