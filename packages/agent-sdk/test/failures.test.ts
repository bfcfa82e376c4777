// Bad input and failing host code: a clear error or result, nothing lost, nothing left running.
import { reply } from "@z-engine/testkit";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  createSdkMcpServer,
  query,
  type SDKResultMessage,
  type SDKUserMessage,
  tool,
} from "../src/index.js";
import { collect, main, toolResults } from "./world.js";
import { worldPerTest } from "./world-per-test.js";

const newWorld = worldPerTest();

describe("failures", () => {
  it("a throwing tool handler and a throwing canUseTool become error results", async () => {
    const w = await newWorld();
    const broken = createSdkMcpServer({
      name: "broken",
      tools: [
        tool("boom", "Fails", {}, async () => {
          throw new Error("handler exploded");
        }),
        tool("asked", "Asks", { n: z.number() }, async () => ({ content: [] })),
      ],
    });
    w.provider.push(
      main(
        reply.toolCalls([
          { name: "mcp__broken__boom", input: {} },
          { name: "mcp__broken__asked", input: { n: 1 } },
        ]),
      ),
      main(reply.text("both failed")),
    );
    const messages = await collect(
      query({
        prompt: "go",
        options: {
          cwd: w.repo.root,
          env: w.env,
          mcpServers: { broken },
          allowedTools: ["mcp__broken__boom"],
          canUseTool: async () => {
            throw new Error("callback exploded");
          },
        },
      }),
    );
    const results = toolResults(messages);
    expect(results.every((r) => r.type === "tool_result" && r.is_error)).toBe(true);
    const body = JSON.stringify(w.mainRequests()[1]?.body);
    expect(body).toContain("handler exploded");
    expect(body).toContain("callback exploded");
    expect((messages.at(-1) as SDKResultMessage).subtype).toBe("success");
  });

  it("an unknown resume id: the generator throws, naming it", async () => {
    const w = await newWorld();
    const q = query({
      prompt: "hi",
      options: { cwd: w.repo.root, env: w.env, resume: "ses_doesnotexist" },
    });
    await expect(collect(q)).rejects.toThrow(/ses_doesnotexist|not found|unknown/i);
    expect(w.provider.requests).toHaveLength(0);
  });

  it("a missing cwd: the generator throws", async () => {
    const w = await newWorld();
    const q = query({ prompt: "hi", options: { cwd: "/no/such/folder", env: w.env } });
    await expect(collect(q)).rejects.toThrow(/no such|ENOENT/i);
  });

  it("leaving the loop while the input stream waits for its next message ends both", async () => {
    const w = await newWorld();
    w.provider.push(main(reply.text("first")));
    let returned = false;
    const input: AsyncIterable<SDKUserMessage> = {
      [Symbol.asyncIterator]: () => {
        let sent = false;
        return {
          next: () => {
            if (sent) return new Promise<IteratorResult<SDKUserMessage>>(() => {});
            sent = true;
            const message: SDKUserMessage = {
              type: "user",
              message: { role: "user", content: "hi" },
              parent_tool_use_id: null,
            };
            return Promise.resolve({ done: false, value: message });
          },
          return: async () => {
            returned = true;
            return { done: true, value: undefined };
          },
        };
      },
    };
    for await (const m of query({ prompt: input, options: { cwd: w.repo.root, env: w.env } }))
      if (m.type === "result") break;
    expect(returned).toBe(true);
  });

  it("leaving the loop at the init message closes the session; a later resume opens it", async () => {
    const w = await newWorld();
    w.provider.push(main(reply.text("late")), main(reply.text("resumed")));
    const q = query({ prompt: "hi", options: { cwd: w.repo.root, env: w.env } });
    let id = "";
    for await (const m of q) {
      id = m.session_id ?? "";
      break;
    }
    // The session is closed and its lock released: it opens again.
    const again = await collect(
      query({ prompt: "again", options: { cwd: w.repo.root, env: w.env, resume: id } }),
    );
    expect(again.at(-1)).toMatchObject({ type: "result", session_id: id });
  });
});
