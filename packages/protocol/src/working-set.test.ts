import { describe, expect, it } from "vitest";
import type { Message } from "./content.js";
import type { MessageId, ToolCallId } from "./ids.js";
import { applyCompaction, applyToolResultClearing, clearedToolResultText } from "./working-set.js";

const id = (s: string) => s as MessageId;
const call = (s: string) => s as ToolCallId;
const user = (i: string, text: string): Message => ({
  id: id(i),
  role: "user",
  content: [{ type: "text", text }],
});
const toolTurn = (i: string, callId: string): Message[] => [
  {
    id: id(`${i}a`),
    role: "assistant",
    content: [{ type: "toolUse", id: call(callId), name: "Read", input: {} }],
  },
  {
    id: id(`${i}u`),
    role: "user",
    content: [
      {
        type: "toolResult",
        toolUseId: call(callId),
        content: [{ type: "text", text: "long output" }],
        isError: false,
      },
    ],
  },
];

describe("applyToolResultClearing", () => {
  const messages = [user("m1", "hi"), ...toolTurn("t1", "c1"), ...toolTurn("t2", "c2")];
  const artifact = {
    ref: "artifact:c1.txt",
    name: "c1.txt",
    bytes: 11,
    mediaType: "text/plain",
    truncated: false,
  };

  it("replaces cleared results with a placeholder naming the artifact and keeps the rest as is", () => {
    const out = applyToolResultClearing(messages, { calls: [{ toolUseId: call("c1"), artifact }] });
    expect(out[2]?.content[0]).toEqual({
      type: "toolResult",
      toolUseId: "c1",
      content: [{ type: "text", text: clearedToolResultText(artifact) }],
      isError: false,
    });
    expect(clearedToolResultText(artifact)).toContain("artifact:c1.txt");
    expect(out[4]).toBe(messages[4]);
    expect(out[0]).toBe(messages[0]);
    expect(messages[2]?.content[0]).toMatchObject({ content: [{ text: "long output" }] });
  });

  it("is deterministic, so live and replayed working sets are the same bytes", () => {
    const clearing = { calls: [{ toolUseId: call("c2"), artifact: null }] };
    expect(JSON.stringify(applyToolResultClearing(messages, clearing))).toBe(
      JSON.stringify(applyToolResultClearing(JSON.parse(JSON.stringify(messages)), clearing)),
    );
  });
});

describe("applyCompaction", () => {
  const messages = [user("m1", "first"), ...toolTurn("t1", "c1"), user("m2", "second")];
  const summary = user("s1", "<summary>first part</summary>");

  it("puts the summary where the dropped messages stood", () => {
    const out = applyCompaction(messages, {
      trigger: "auto",
      summary,
      droppedMessageIds: [id("m1"), id("t1a"), id("t1u")],
      tokensBefore: 100,
      tokensAfter: 10,
    });
    expect(out.map((m) => m.id)).toEqual(["s1", "m2"]);
  });

  it("puts the summary first when none of the dropped messages is present", () => {
    const out = applyCompaction([user("m9", "x")], {
      trigger: "manual",
      summary,
      droppedMessageIds: [id("gone")],
      tokensBefore: 1,
      tokensAfter: 1,
    });
    expect(out.map((m) => m.id)).toEqual(["s1", "m9"]);
  });
});
