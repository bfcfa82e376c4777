import type { RawMessageStreamEvent } from "@anthropic-ai/sdk/resources/messages";
import { describe, expect, it } from "vitest";
import { AnthropicDecoder } from "./decode.js";

const wire = (events: unknown[]) => events as RawMessageStreamEvent[];

describe("AnthropicDecoder", () => {
  it("a tool block the output limit left open still comes out, unparsed, before the stop", () => {
    const decoder = new AnthropicDecoder();
    const events = wire([
      { type: "message_start", message: { model: "m", usage: { input_tokens: 3 } } },
      {
        type: "content_block_start",
        index: 0,
        content_block: { type: "tool_use", id: "toolu_1", name: "Write", input: {} },
      },
      {
        type: "content_block_delta",
        index: 0,
        delta: { type: "input_json_delta", partial_json: '{"file_path": "/a", "content": "ab' },
      },
      { type: "message_delta", delta: { stop_reason: "max_tokens" }, usage: { output_tokens: 9 } },
      { type: "message_stop" },
    ]).flatMap((e) => decoder.push(e));
    const end = decoder.finish();
    expect(events.filter((e) => e.type === "toolCall")).toEqual([]);
    expect(end).toMatchObject([
      { type: "toolCall", id: "toolu_1", name: "Write", inputError: expect.any(String) },
      { type: "stop", reason: "maxTokens" },
    ]);
  });
});
