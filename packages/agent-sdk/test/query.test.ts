import { reply } from "@z-engine/testkit";
import { describe, expect, it } from "vitest";
import { query, type SDKResultMessage, type SDKUserMessage } from "../src/index.js";
import { collect, main } from "./world.js";
import { worldPerTest } from "./world-per-test.js";

const newWorld = worldPerTest();

describe("query() with a string prompt", () => {
  it("yields system init, assistant, user tool results and the result", async () => {
    const w = await newWorld();
    w.provider.push(
      main(reply.toolCalls([{ name: "Glob", input: { pattern: "*.md" } }], { text: "Looking." })),
      main(reply.text("One file.", { usage: { input: 100, output: 5 } })),
    );
    const messages = await collect(
      query({
        prompt: "list the markdown files",
        options: { cwd: w.repo.root, env: w.env, includePartialMessages: true },
      }),
    );
    const types = messages.map((m) => m.type);
    expect(types[0]).toBe("system");
    expect(messages[0]).toMatchObject({
      subtype: "init",
      cwd: w.repo.root,
      permissionMode: "default",
      tools: expect.arrayContaining(["Read", "Glob", "Bash"]),
      slash_commands: expect.arrayContaining(["cost"]),
    });
    expect(types.filter((t) => t === "assistant")).toHaveLength(2);
    expect(types).toContain("stream_event");
    const toolResult = messages.find((m): m is SDKUserMessage => m.type === "user");
    expect(toolResult?.message.content[0]).toMatchObject({ type: "tool_result", is_error: false });
    const result = messages.at(-1) as SDKResultMessage;
    expect(result).toMatchObject({
      type: "result",
      subtype: "success",
      is_error: false,
      result: "One file.",
      num_turns: 2,
      session_id: messages[0]?.session_id,
      badge: { status: expect.any(String) },
    });
  });
});

describe("query() with streaming input", () => {
  it("runs a turn per user message, in order, until the stream ends", async () => {
    const w = await newWorld();
    w.provider.push(main(reply.text("first answer")), main(reply.text("second answer")));
    const provider = w.provider;
    async function* messages(): AsyncGenerator<SDKUserMessage> {
      yield { type: "user", message: { role: "user", content: "first" }, parent_tool_use_id: null };
      // The second message is sent once the first request has arrived, as a chat host would.
      await provider.requestArrived(0);
      yield {
        type: "user",
        message: { role: "user", content: [{ type: "text", text: "second" }] },
        parent_tool_use_id: null,
      };
    }
    const out = await collect(
      query({ prompt: messages(), options: { cwd: w.repo.root, env: w.env } }),
    );
    const results = out.filter((m): m is SDKResultMessage => m.type === "result");
    expect(results.map((r) => r.result)).toEqual(["first answer", "second answer"]);
    expect(JSON.stringify(w.mainRequests()[1]?.body)).toContain("second");
  });
});
