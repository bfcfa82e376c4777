import { readFile } from "node:fs/promises";
import { createShell, type CommandRequest, type Shell } from "@z-engine/host";
import { createEngine, type EditorFiles } from "@z-engine/engine";
import { createTestEngine, MCP_TEST_SERVER, reply } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { loginFix, loginProject } from "../harness.js";

// The seams an embedding host (an ACP agent) uses per session: its editor for text files,
// its own shell (an editor's terminals) and a settings layer of its own (an editor's MCP
// servers), all through SessionOptions.

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

/** An editor over the disk with one unsaved buffer; writes stay in the editor. */
function editorWith(path: string, unsaved: string) {
  const buffers = new Map([[path, unsaved]]);
  const writes: Array<[string, string]> = [];
  const editor: EditorFiles = {
    readTextFile: async (p) => buffers.get(p) ?? (await readFile(p, "utf8")),
    writeTextFile: async (p, text) => {
      writes.push([p, text]);
      buffers.set(p, text);
    },
  };
  return { editor, writes };
}

/** A real shell that records each request it runs (a host's terminals stand behind such a seam). */
function recordingShell() {
  const real = createShell({ baseEnv: { PATH: process.env.PATH ?? "/usr/bin:/bin" } });
  const runs: CommandRequest[] = [];
  const shell: Shell = {
    run: (request) => {
      runs.push(request);
      return real.run(request);
    },
    spawnBackground: (request) => real.spawnBackground(request),
  };
  return { shell, runs };
}

describe("per-session host seams", { timeout: 30_000 }, () => {
  it("reads and edits through the host's editor, behind the same gate", async () => {
    const t = await createTestEngine({
      createEngine,
      files: loginProject,
      script: [],
      session: { mode: "acceptEdits" },
    });
    cleanup.push(() => t.dispose());
    const path = t.repo.path("src/auth/token.js");
    const unsaved =
      "export function isExpired(token, now) {\n  return now > token.expiresAt; // unsaved\n}\n";
    const { editor, writes } = editorWith(path, unsaved);
    const session = await t.engine.createSession(t.repo.root, { mode: "acceptEdits", editor });
    t.model.push(
      reply.toolCall("Read", { file_path: path }),
      reply.toolCall("Edit", { ...loginFix, file_path: path }),
      reply.text("Fixed in your buffer."),
    );
    const summary = await session.run("fix it");
    expect(summary.outcome).toBe("completed");
    const readResult = JSON.stringify(t.model.requests[1]?.messages.at(-1));
    expect(readResult).toContain("// unsaved");
    expect(writes).toEqual([[path, unsaved.replace("now > token", "now >= token")]]);
    // The disk is the editor's business now: the engine wrote nothing there.
    expect(await t.repo.read("src/auth/token.js")).not.toContain("unsaved");
    await session.close();
  });

  it("runs Bash and checks in the host's shell, naming the tool call", async () => {
    const t = await createTestEngine({ createEngine, files: loginProject, script: [] });
    cleanup.push(() => t.dispose());
    const { shell, runs } = recordingShell();
    const events: string[] = [];
    const session = await t.engine.createSession(t.repo.root, {
      mode: "bypass",
      shell,
      onEvent: ({ event }) => {
        if (event.type === "toolStarted") events.push(event.toolCallId);
      },
    });
    t.model.push(
      reply.toolCall("Bash", { command: "echo from-the-host-shell" }),
      reply.toolCall("Verify", { checks: ["npm:test"] }),
      reply.text("done"),
    );
    expect((await session.run("run it")).outcome).toBe("completed");
    const bash = runs.find((r) => r.command.includes("echo from-the-host-shell"));
    expect(bash?.toolCallId).toBe(events[0]);
    expect(runs.some((r) => r.command.includes("npm test"))).toBe(true);
    await session.close();
  });

  it("keeps the sandboxed shell when the settings turn the sandbox on", async () => {
    const t = await createTestEngine({
      createEngine,
      files: loginProject,
      script: [],
      // No sandbox can run here (the host turned it off), so commands ask (issue 38, item
      // 18): the rule lets this one run, in the engine's own shell.
      engine: {
        settings: {
          shell: { sandbox: { enabled: true } },
          permissions: { allow: ["Bash(echo boxed)"] },
        },
        sandbox: null,
      },
    });
    cleanup.push(() => t.dispose());
    const { shell, runs } = recordingShell();
    const notices: string[] = [];
    const session = await t.engine.createSession(t.repo.root, {
      mode: "bypass",
      shell,
      onEvent: ({ event }) => {
        if (event.type === "notice") notices.push(event.message);
      },
    });
    t.model.push(reply.toolCall("Bash", { command: "echo boxed" }), reply.text("done"));
    await session.run("run it");
    expect(runs).toEqual([]);
    expect(notices.some((n) => n.includes("not the host's own shell"))).toBe(true);
    await session.close();
  });

  it("joins a session's own settings layer (an editor's MCP servers) to the engine's", async () => {
    const t = await createTestEngine({ createEngine, files: loginProject, script: [] });
    cleanup.push(() => t.dispose());
    const server = { command: process.execPath, args: [MCP_TEST_SERVER] };
    const session = await t.engine.createSession(t.repo.root, {
      settings: { mcp: { servers: { editor: server } } },
    });
    session.send({ type: "submit", text: "hello" });
    t.model.push(reply.text("hi"));
    await session.nextTurnEnd();
    await session.mcp.settled();
    expect(session.mcp.servers().map((s) => [s.name, s.state])).toEqual([["editor", "ready"]]);
    // Another session of the same engine has none of it.
    const other = await t.engine.createSession(t.repo.root);
    expect(other.mcp.servers()).toEqual([]);
    await other.close();
    await session.close();
  });
});
