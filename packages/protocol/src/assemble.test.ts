import { describe, expect, it } from "vitest";
import { MessageAssembler } from "./assemble.js";
import type { ToolCallId } from "./ids.js";
import type { ModelEvent } from "./model.js";

const assemble = (events: ModelEvent[]) => {
  const assembler = new MessageAssembler();
  for (const event of events) assembler.push(event);
  return assembler;
};

describe("MessageAssembler", () => {
  it("folds deltas into blocks in arrival order", () => {
    const a = assemble([
      { type: "thinkingDelta", text: "Let me " },
      { type: "thinkingDelta", text: "look." },
      { type: "thinkingEnd", signature: "sig-1" },
      { type: "textDelta", text: "Reading " },
      { type: "textDelta", text: "the file." },
      { type: "toolCall", id: "t1" as ToolCallId, name: "Read", input: { file_path: "a" } },
      { type: "toolCall", id: "t2" as ToolCallId, name: "Read", input: { file_path: "b" } },
      { type: "usage", usage: { input: 10, output: 2, cacheRead: 0, cacheWrite: 0 } },
      { type: "usage", usage: { input: 10, output: 7, cacheRead: 0, cacheWrite: 0 } },
      { type: "stop", reason: "toolUse" },
    ]);
    expect(a.content).toEqual([
      { type: "thinking", thinking: "Let me look.", signature: "sig-1" },
      { type: "text", text: "Reading the file." },
      { type: "toolUse", id: "t1", name: "Read", input: { file_path: "a" } },
      { type: "toolUse", id: "t2", name: "Read", input: { file_path: "b" } },
    ]);
    expect(a.usage.output).toBe(7);
    expect(a.stopReason).toBe("toolUse");
    expect(a.answered).toBe(true);
  });

  it("starts a new thinking block after one was closed, and a new text block after a tool call", () => {
    const a = assemble([
      { type: "thinkingDelta", text: "one" },
      { type: "thinkingEnd" },
      { type: "thinkingDelta", text: "two" },
      { type: "redactedThinking", data: "opaque" },
      { type: "textDelta", text: "a" },
      { type: "toolCall", id: "t1" as ToolCallId, name: "Bash", input: {} },
      { type: "textDelta", text: "b" },
    ]);
    expect(a.content.map((b) => b.type)).toEqual([
      "thinking",
      "thinking",
      "redactedThinking",
      "text",
      "toolUse",
      "text",
    ]);
  });

  it("keeps the terminal error and reports no answer when nothing arrived", () => {
    const a = assemble([
      { type: "thinkingDelta", text: "x" },
      { type: "error", error: { kind: "overloaded", message: "529" } },
    ]);
    expect(a.answered).toBe(false);
    expect(a.error).toEqual({ kind: "overloaded", message: "529" });
  });
});
