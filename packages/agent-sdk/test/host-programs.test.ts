// Host programs in the Agent SDK's documented style, each against the fake provider.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { reply } from "@z-engine/testkit";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  createSdkMcpServer,
  type HookInput,
  query,
  type SDKSystemMessage,
  type SDKUserMessage,
  tool,
} from "../src/index.js";
import { collect, main, resultOf } from "./world.js";
import { worldPerTest } from "./world-per-test.js";

const newWorld = worldPerTest();

const bodyText = (request: { body: unknown } | undefined) => JSON.stringify(request?.body ?? "");

describe("host programs", () => {
  it("a custom tool via createSdkMcpServer runs in process, through the gate", async () => {
    const w = await newWorld();
    const calls: unknown[] = [];
    const calc = createSdkMcpServer({
      name: "calc",
      version: "1.0.0",
      tools: [
        tool("add", "Adds two numbers", { a: z.number(), b: z.number() }, async (args) => {
          calls.push(args);
          return { content: [{ type: "text", text: String(args.a + args.b) }] };
        }),
      ],
    });
    w.provider.push(
      main(reply.toolCalls([{ name: "mcp__calc__add", input: { a: 2, b: 3 } }])),
      main(reply.text("It is 5.")),
    );
    const messages = await collect(
      query({
        prompt: "add 2 and 3",
        options: {
          cwd: w.repo.root,
          env: w.env,
          mcpServers: { calc },
          allowedTools: ["mcp__calc__add"],
        },
      }),
    );
    const init = messages[0] as SDKSystemMessage;
    expect(init.tools).toContain("mcp__calc__add");
    expect(init.mcp_servers).toEqual([{ name: "calc", status: "connected" }]);
    expect(calls).toEqual([{ a: 2, b: 3 }]);
    expect(bodyText(w.mainRequests()[1])).toContain('"5"');
    expect(resultOf(messages)).toMatchObject({ subtype: "success", result: "It is 5." });
  });

  it("without an allow rule the in-process tool is asked for, and canUseTool decides", async () => {
    const w = await newWorld();
    let ran = false;
    const calc = createSdkMcpServer({
      name: "calc",
      tools: [
        tool("add", "Adds", { a: z.number() }, async () => {
          ran = true;
          return { content: [{ type: "text", text: "1" }] };
        }),
      ],
    });
    w.provider.push(
      main(reply.toolCalls([{ name: "mcp__calc__add", input: { a: 1 } }])),
      main(reply.text("refused")),
    );
    const asked: string[] = [];
    const messages = await collect(
      query({
        prompt: "add",
        options: {
          cwd: w.repo.root,
          env: w.env,
          mcpServers: { calc },
          canUseTool: async (name) => {
            asked.push(name);
            return { behavior: "deny", message: "not now" };
          },
        },
      }),
    );
    expect(asked).toEqual(["mcp__calc__add"]);
    expect(ran).toBe(false);
    expect(resultOf(messages)?.permission_denials).toMatchObject([
      { tool_name: "mcp__calc__add", tool_input: { a: 1 } },
    ]);
  });

  it("canUseTool denies one call and allows another", async () => {
    const w = await newWorld();
    const a = join(w.repo.root, "a.txt");
    const b = join(w.repo.root, "b.txt");
    w.provider.push(
      main(
        reply.toolCalls([
          { name: "Write", input: { file_path: a, content: "a\n" } },
          { name: "Write", input: { file_path: b, content: "b\n" } },
        ]),
      ),
      main(reply.text("Wrote one.")),
    );
    const seen: Array<{ name: string; input: Record<string, unknown> }> = [];
    const messages = await collect(
      query({
        prompt: "write a.txt and b.txt",
        options: {
          cwd: w.repo.root,
          env: w.env,
          canUseTool: async (toolName, input, { toolUseID }) => {
            seen.push({ name: toolName, input });
            expect(toolUseID).toMatch(/.+/);
            return input.file_path === a
              ? { behavior: "deny", message: "not a.txt" }
              : { behavior: "allow", updatedInput: input };
          },
        },
      }),
    );
    expect(seen.map((s) => s.input.file_path).sort()).toEqual([a, b]);
    expect(existsSync(a)).toBe(false);
    expect(existsSync(b)).toBe(true);
    const denied = messages
      .filter((m): m is SDKUserMessage => m.type === "user")
      .flatMap((m) => (Array.isArray(m.message.content) ? m.message.content : []))
      .filter((c) => c.type === "tool_result" && c.is_error);
    expect(denied).toHaveLength(1);
    expect(resultOf(messages)?.permission_denials).toMatchObject([
      { tool_name: "Write", tool_input: { file_path: a } },
    ]);
    expect(bodyText(w.mainRequests()[1])).toContain("not a.txt");
  });

  it("canUseTool's updatedInput runs the call with the new input, gated again", async () => {
    const w = await newWorld();
    const asked = join(w.repo.root, "asked.txt");
    const instead = join(w.repo.root, "instead.txt");
    const secret = join(w.repo.root, "secret.txt");
    w.provider.push(
      main(
        reply.toolCalls([
          { name: "Write", input: { file_path: asked, content: "a\n" } },
          { name: "Write", input: { file_path: join(w.repo.root, "other.txt"), content: "o\n" } },
        ]),
      ),
      main(reply.text("done")),
    );
    const messages = await collect(
      query({
        prompt: "write",
        options: {
          cwd: w.repo.root,
          env: w.env,
          disallowedTools: ["Write(**/secret.txt)"],
          canUseTool: async (_name, input) => ({
            behavior: "allow",
            updatedInput: { ...input, file_path: input.file_path === asked ? instead : secret },
          }),
        },
      }),
    );
    expect(existsSync(asked)).toBe(false);
    expect(existsSync(instead)).toBe(true);
    // The second call was rewritten onto a path a deny rule covers: the rule still holds.
    expect(existsSync(secret)).toBe(false);
    expect(resultOf(messages)?.permission_denials).toHaveLength(1);
  });

  it("a PreToolUse hook callback sees the call and denies it", async () => {
    const w = await newWorld();
    w.provider.push(
      main(reply.toolCalls([{ name: "Bash", input: { command: "echo hi" } }])),
      main(reply.text("Blocked.")),
    );
    const inputs: HookInput[] = [];
    const ids: Array<string | undefined> = [];
    const messages = await collect(
      query({
        prompt: "say hi",
        options: {
          cwd: w.repo.root,
          env: w.env,
          permissionMode: "bypassPermissions",
          hooks: {
            PreToolUse: [
              {
                matcher: "Bash",
                hooks: [
                  async (input, toolUseID) => {
                    inputs.push(input);
                    ids.push(toolUseID);
                    return {
                      hookSpecificOutput: {
                        hookEventName: "PreToolUse",
                        permissionDecision: "deny",
                        permissionDecisionReason: "no shell in this host",
                      },
                    };
                  },
                ],
              },
            ],
          },
        },
      }),
    );
    expect(inputs).toHaveLength(1);
    const input = inputs[0];
    expect(input?.hook_event_name).toBe("PreToolUse");
    if (input?.hook_event_name !== "PreToolUse") return;
    expect(input.tool_name).toBe("Bash");
    expect(input.tool_input).toEqual({ command: "echo hi" });
    expect(ids[0]).toBe(input.tool_use_id);
    expect(bodyText(w.mainRequests()[1])).toContain("no shell in this host");
    expect(resultOf(messages)?.permission_denials).toHaveLength(1);
  });

  it("outputFormat delivers the validated answer as structured_output", async () => {
    const w = await newWorld();
    w.provider.push(main(reply.text('{"answer": 42}')));
    const messages = await collect(
      query({
        prompt: "the answer?",
        options: {
          cwd: w.repo.root,
          env: w.env,
          outputFormat: {
            type: "json_schema",
            schema: {
              type: "object",
              properties: { answer: { type: "number" } },
              required: ["answer"],
            },
          },
        },
      }),
    );
    expect(resultOf(messages)).toMatchObject({
      subtype: "success",
      structured_output: { answer: 42 },
    });
  });

  it("resume continues a stored session with its history", async () => {
    const w = await newWorld();
    w.provider.push(main(reply.text("Noted: blue.")), main(reply.text("It was blue.")));
    const first = resultOf(
      await collect(query({ prompt: "remember: blue", options: { cwd: w.repo.root, env: w.env } })),
    );
    const id = first?.session_id ?? "";
    expect(id).not.toBe("");
    const second = await collect(
      query({ prompt: "which colour?", options: { cwd: w.repo.root, env: w.env, resume: id } }),
    );
    expect(second[0]).toMatchObject({ type: "system", session_id: id });
    expect(resultOf(second)).toMatchObject({ result: "It was blue.", session_id: id });
    expect(bodyText(w.mainRequests()[1])).toContain("remember: blue");
  });

  it("maxTurns ends the turn with error_max_turns", async () => {
    const w = await newWorld();
    w.provider.push(main(reply.toolCalls([{ name: "Glob", input: { pattern: "*" } }])));
    const messages = await collect(
      query({ prompt: "look", options: { cwd: w.repo.root, env: w.env, maxTurns: 1 } }),
    );
    expect(resultOf(messages)).toMatchObject({
      subtype: "error_max_turns",
      is_error: true,
      num_turns: 1,
    });
  });
});
