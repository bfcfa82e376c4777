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
import { main, type World } from "./cli.test.helpers.js";

const rig = new AcpRig();
afterEach(() => rig.dispose());

/** Every tool call among `updates` and the last status it was given. */
function toolStatuses(updates: SessionUpdate[]): Map<string, string | undefined> {
  const statuses = new Map<string, string | undefined>();
  for (const u of updates)
    if (u.sessionUpdate === "tool_call" || u.sessionUpdate === "tool_call_update")
      statuses.set(u.toolCallId, u.status ?? statuses.get(u.toolCallId));
  return statuses;
}

const TOKEN = "src/auth/token.js";
const FIX_PROMPT = "The login test fails. Please fix it.";

/**
 * The five-round fix in a first `zeng acp` (ask mode: every card becomes a permission request,
 * answered "allow always"): run the test, read, edit, run it again, answer. The agent exits
 * after; resolves with the session and the kinds of the permission requests' options.
 */
async function fiveRoundFix(w: World) {
  const path = (p: string) => w.repo.path(p);
  w.provider.push(
    main(reply.toolCall("Verify", { checks: ["npm:test"] })),
    main(reply.toolCall("Read", { file_path: path(TOKEN) })),
    main(
      reply.toolCall("Edit", {
        file_path: path(TOKEN),
        old_string: "now > token.expiresAt",
        new_string: "now >= token.expiresAt",
      }),
    ),
    main(reply.toolCall("Verify", { checks: ["npm:test"] })),
    main(reply.text("Fixed isExpired. The login test passes.")),
  );
  const asked: string[][] = [];
  const first = rig.start(w, (kinds) => {
    asked.push(kinds);
    return "allow_always";
  });
  const { sessionId, response } = await promptOnce(first.editor, w.repo.root, FIX_PROMPT);
  const updates = first.editor.updatesOf(sessionId);
  await first.editor.close();
  await stopAgent(first.agent);
  return { sessionId, response, asked, updates };
}

describe("zeng acp sessions over stdio", () => {
  it("fixes the login test in five rounds, the edit's request answered allow always; session/load in a new agent replays it, then continues it", async () => {
    const w = await rig.world({ format: "anthropic" });
    const fix = await fiveRoundFix(w);
    expect(fix.response.stopReason).toBe("end_turn");
    expect(fix.response._meta?.["z-engine"]).toMatchObject({
      outcome: "completed",
      badge: { status: "verified" },
    });
    expect(fix.asked).toContainEqual(expect.arrayContaining(["allow_once", "allow_always"]));
    expect(await w.repo.read(TOKEN)).toContain("now >= token.expiresAt");
    expect(fix.updates.filter((u) => u.sessionUpdate === "tool_call")).toHaveLength(4);

    const { editor } = rig.start(w, () => "allow_once");
    await initialize(editor);
    const { sessionId } = fix;
    await editor.agent.request("session/load", { sessionId, cwd: w.repo.root, mcpServers: [] });
    // The replay arrives before the response: the editor shows the conversation at once.
    const replayed = editor.updatesOf(sessionId);
    expect(replayed).toContainEqual(
      expect.objectContaining({
        sessionUpdate: "user_message_chunk",
        content: expect.objectContaining({ text: FIX_PROMPT }),
      }),
    );
    expect(replayed).toContainEqual(
      expect.objectContaining({ sessionUpdate: "tool_call", kind: "edit" }),
    );
    expect(messageText(replayed)).toContain("Fixed isExpired.");
    // Each tool call ends as the editor saw it live (the first test run failed, as it should).
    const live = [...toolStatuses(fix.updates).values()];
    expect(live).toEqual(["failed", "completed", "completed", "completed"]);
    expect([...toolStatuses(replayed).values()]).toEqual(live);
    w.provider.push(main(reply.text("It compared with >.")));
    const next = await promptText(editor, sessionId, "What was wrong?");
    expect(next.stopReason).toBe("end_turn");
    expect(JSON.stringify(w.mainRequests().at(-1)?.body)).toContain("Fixed isExpired.");
  });

  it("session/resume continues the stored session without replaying it", async () => {
    const w = await rig.world({ format: "anthropic" });
    const { sessionId } = await fiveRoundFix(w);
    const { editor } = rig.start(w, () => "allow_once");
    await initialize(editor);
    await editor.agent.request("session/resume", { sessionId, cwd: w.repo.root, mcpServers: [] });
    w.provider.push(main(reply.text("Still here.")));
    const next = await promptText(editor, sessionId, "Go on");
    expect(next.stopReason).toBe("end_turn");
    const kinds = editor.updatesOf(sessionId).map((u) => u.sessionUpdate);
    expect(kinds).not.toContain("user_message_chunk");
    expect(kinds).not.toContain("tool_call");
    expect(JSON.stringify(w.mainRequests().at(-1)?.body)).toContain("Fixed isExpired.");
  });

  it("session/load of a session that does not exist is refused", async () => {
    const w = await rig.world({ format: "anthropic", files: { "a.txt": "a\n" } });
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
    const w = await rig.world({ format: "anthropic", files: { "a.txt": "a\n" } });
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
    const w = await rig.world({ format: "anthropic", files: { "a.txt": "a\n" } });
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
    const w = await rig.world({ format: "anthropic", files: { "a.txt": "a\n" } });
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
