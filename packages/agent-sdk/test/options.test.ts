// The options hosts use most, and the query's controls, against the fake provider.
import { existsSync } from "node:fs";
import { join } from "node:path";
import {
  createFixtureRepo,
  type FakeProviderRequest,
  MCP_TEST_SERVER,
  reply,
} from "@z-engine/testkit";
import { describe, expect, it } from "vitest";
import {
  AbortError,
  query,
  type SDKMessage,
  type SDKSystemMessage,
  type SDKUserMessage,
} from "../src/index.js";
import { collect, main, results } from "./world.js";
import { worldPerTest } from "./world-per-test.js";

const newWorld = worldPerTest();

const systemText = (request: FakeProviderRequest | undefined) =>
  JSON.stringify((request?.body as { system?: unknown } | undefined)?.system ?? "");
const writeCall = (path: string) =>
  main(reply.toolCalls([{ name: "Write", input: { file_path: path, content: "x\n" } }]));

describe("options", () => {
  it("systemPrompt: a string replaces the base prompt; the preset keeps it and appends", async () => {
    const w = await newWorld();
    w.provider.push(main(reply.text("one")), main(reply.text("two")));
    const base = { cwd: w.repo.root, env: w.env };
    await collect(
      query({ prompt: "a", options: { ...base, systemPrompt: "You are a haiku bot." } }),
    );
    await collect(
      query({
        prompt: "b",
        options: {
          ...base,
          systemPrompt: { type: "preset", preset: "claude_code", append: "Sign with -- zeng." },
        },
      }),
    );
    const [own, preset] = w.mainRequests();
    expect(systemText(own)).toContain("You are a haiku bot.");
    expect(systemText(own)).not.toContain("Read before you edit");
    expect(systemText(preset)).toContain("Read before you edit");
    expect(systemText(preset)).toContain("Sign with -- zeng.");
  });

  it("allowedTools allows a write the mode would ask for; disallowedTools denies in bypass", async () => {
    const w = await newWorld();
    const allowed = join(w.repo.root, "allowed.txt");
    w.provider.push(writeCall(allowed), main(reply.text("done")));
    await collect(
      query({
        prompt: "write",
        options: { cwd: w.repo.root, env: w.env, allowedTools: ["Write"] },
      }),
    );
    expect(existsSync(allowed)).toBe(true);
    const denied = join(w.repo.root, "denied.txt");
    w.provider.push(writeCall(denied), main(reply.text("could not")));
    const out = await collect(
      query({
        prompt: "write",
        options: {
          cwd: w.repo.root,
          env: w.env,
          permissionMode: "bypassPermissions",
          disallowedTools: ["Write"],
        },
      }),
    );
    expect(existsSync(denied)).toBe(false);
    expect(results(out)[0]?.permission_denials).toHaveLength(1);
  });

  it("setPermissionMode between streamed messages changes what the next turn may do", async () => {
    const w = await newWorld();
    const first = join(w.repo.root, "first.txt");
    const second = join(w.repo.root, "second.txt");
    w.provider.push(writeCall(first), main(reply.text("denied")));
    w.provider.push(writeCall(second), main(reply.text("written")));
    let firstResult: () => void = () => {};
    const firstDone = new Promise<void>((resolve) => {
      firstResult = resolve;
    });
    const user = (text: string): SDKUserMessage => ({
      type: "user",
      message: { role: "user", content: text },
      parent_tool_use_id: null,
    });
    async function* input(): AsyncGenerator<SDKUserMessage> {
      yield user("write first");
      await firstDone;
      yield user("write second");
    }
    const q = query({ prompt: input(), options: { cwd: w.repo.root, env: w.env } });
    const out: SDKMessage[] = [];
    for await (const m of q) {
      out.push(m);
      if (m.type === "result" && results(out).length === 1) {
        await q.setPermissionMode("acceptEdits");
        firstResult();
      }
    }
    expect(existsSync(first)).toBe(false);
    expect(existsSync(second)).toBe(true);
    expect(results(out).map((r) => r.permission_denials.length)).toEqual([1, 0]);
  });

  it("setModel and supportedCommands reach the open session", async () => {
    const w = await newWorld();
    w.provider.push(main(reply.text("one")), main(reply.text("two")));
    let next: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      next = resolve;
    });
    async function* input(): AsyncGenerator<SDKUserMessage> {
      yield { type: "user", message: { role: "user", content: "a" }, parent_tool_use_id: null };
      await gate;
      yield { type: "user", message: { role: "user", content: "b" }, parent_tool_use_id: null };
    }
    const q = query({
      prompt: input(),
      options: { cwd: w.repo.root, env: w.env, model: "model-one" },
    });
    const commands = await q.supportedCommands();
    expect(commands.find((c) => c.name === "cost")).toMatchObject({
      description: expect.any(String),
      argumentHint: expect.any(String),
    });
    for await (const m of q)
      if (m.type === "result") {
        await q.setModel("model-two");
        next();
      }
    expect(w.mainRequests().map((r) => r.model)).toEqual(["model-one", "model-two"]);
  });

  it("interrupt() ends the running turn with error_during_execution", async () => {
    const w = await newWorld();
    w.provider.push(writeCall(join(w.repo.root, "x.txt")));
    let q: ReturnType<typeof query> | undefined;
    q = query({
      prompt: "write",
      options: {
        cwd: w.repo.root,
        env: w.env,
        canUseTool: async () => {
          await q?.interrupt();
          return { behavior: "deny", message: "interrupted" };
        },
      },
    });
    const out = await collect(q);
    expect(results(out)[0]).toMatchObject({ subtype: "error_during_execution", is_error: true });
  });

  it("abortController: the generator throws AbortError, and no later turn starts", async () => {
    const w = await newWorld();
    w.provider.push(writeCall(join(w.repo.root, "x.txt")));
    const abortController = new AbortController();
    const q = query({
      prompt: "write",
      options: {
        cwd: w.repo.root,
        env: w.env,
        abortController,
        canUseTool: async () => {
          abortController.abort();
          return { behavior: "allow" };
        },
      },
    });
    await expect(collect(q)).rejects.toBeInstanceOf(AbortError);
    expect(existsSync(join(w.repo.root, "x.txt"))).toBe(false);
    expect(w.mainRequests()).toHaveLength(1);
  });

  it("abortController already aborted: no turn starts, the generator throws AbortError", async () => {
    const w = await newWorld();
    w.provider.push(main(reply.text("never")));
    const abortController = new AbortController();
    abortController.abort();
    const q = query({ prompt: "hi", options: { cwd: w.repo.root, env: w.env, abortController } });
    const seen: string[] = [];
    const reading = (async () => {
      for await (const m of q) seen.push(m.type);
    })();
    await expect(reading).rejects.toBeInstanceOf(AbortError);
    expect(seen).toEqual(["system"]);
    expect(w.mainRequests()).toHaveLength(0);
  });

  it("additionalDirectories lets the agent write outside the project", async () => {
    const w = await newWorld();
    const other = await createFixtureRepo({ files: { "notes.md": "x\n" } });
    try {
      const target = join(other.root, "out.txt");
      w.provider.push(writeCall(target), main(reply.text("done")));
      w.provider.push(writeCall(target), main(reply.text("done")));
      const opts = { cwd: w.repo.root, env: w.env, permissionMode: "acceptEdits" as const };
      await collect(query({ prompt: "write", options: opts }));
      expect(existsSync(target)).toBe(false);
      await collect(
        query({ prompt: "write", options: { ...opts, additionalDirectories: [other.root] } }),
      );
      expect(existsSync(target)).toBe(true);
    } finally {
      await other.dispose();
    }
  });

  it("forkSession with resume goes on in a copy; the original keeps its own history", async () => {
    const w = await newWorld();
    w.provider.push(
      main(reply.text("Noted: blue.")),
      main(reply.text("It was blue (fork).")),
      main(reply.text("It was blue.")),
    );
    const opts = { cwd: w.repo.root, env: w.env };
    const first = results(await collect(query({ prompt: "remember: blue", options: opts })))[0];
    const id = first?.session_id ?? "";
    const forked = await collect(
      query({ prompt: "fork question", options: { ...opts, resume: id, forkSession: true } }),
    );
    const fork = results(forked)[0];
    expect(fork).toMatchObject({ result: "It was blue (fork)." });
    expect(fork?.session_id).not.toBe(id);
    expect(forked[0]).toMatchObject({ type: "system", session_id: fork?.session_id });
    expect(JSON.stringify(w.mainRequests()[1]?.body)).toContain("remember: blue");
    await collect(query({ prompt: "which colour?", options: { ...opts, resume: id } }));
    const original = JSON.stringify(w.mainRequests()[2]?.body);
    expect(original).toContain("remember: blue");
    expect(original).not.toContain("fork question");
  });

  it("continue picks the newest session of the folder", async () => {
    const w = await newWorld();
    w.provider.push(main(reply.text("first")), main(reply.text("second")));
    const opts = { cwd: w.repo.root, env: w.env };
    const a = results(await collect(query({ prompt: "one", options: opts })))[0];
    const b = results(
      await collect(query({ prompt: "two", options: { ...opts, continue: true } })),
    )[0];
    expect(b?.session_id).toBe(a?.session_id);
  });

  it("mcpServers starts a stdio server; its tools are in init and mcpServerStatus", async () => {
    const w = await newWorld();
    w.provider.push(main(reply.toolCalls([{ name: "mcp__probe__echo", input: { text: "ping" } }])));
    w.provider.push(main(reply.text("echoed")));
    const q = query({
      prompt: "echo ping",
      options: {
        cwd: w.repo.root,
        env: w.env,
        mcpServers: { probe: { command: process.execPath, args: [MCP_TEST_SERVER] } },
        allowedTools: ["mcp__probe__echo"],
      },
    });
    const out: SDKMessage[] = [];
    for await (const m of q) {
      out.push(m);
      if (m.type === "system")
        expect(await q.mcpServerStatus()).toEqual([{ name: "probe", status: "connected" }]);
    }
    const init = out[0] as SDKSystemMessage;
    expect(init.mcp_servers).toEqual([{ name: "probe", status: "connected" }]);
    expect(init.tools).toContain("mcp__probe__echo");
    expect(JSON.stringify(w.mainRequests()[1]?.body)).toContain("ping");
    expect(results(out)[0]?.subtype).toBe("success");
  });

  it("stderr hears what zeng cannot honour: a hook event it never fires", async () => {
    const w = await newWorld();
    w.provider.push(main(reply.text("ok")));
    const lines: string[] = [];
    await collect(
      query({
        prompt: "hi",
        options: {
          cwd: w.repo.root,
          env: w.env,
          stderr: (data) => lines.push(data),
          hooks: { PermissionRequest: [{ hooks: [async () => ({})] }] },
        },
      }),
    );
    expect(lines.join("")).toContain("PermissionRequest");
  });
});
