import type { FakeProviderRequest } from "@z-engine/testkit";
import { describe, expect, it } from "vitest";
import { mixedHistories } from "./history.js";

const text = (t: string) => ({ type: "text", text: t });
const call = (id: string) => ({ type: "toolUse", id, name: "Bash", input: { command: "ls" } });
const result = (id: string) => ({
  type: "toolResult",
  toolUseId: id,
  content: [text("ok")],
  isError: false,
});
const message = (id: string, role: string, content: unknown[]) => ({
  kind: "message",
  v: 1,
  ts: 0,
  message: { id, role, content },
});

// A log: a request, two tool rounds, then a compaction that drops the first round.
const summary = { id: "m9", role: "user", content: [text("[summary s1] the story so far")] };
const records = [
  message("m1", "user", [text("step 1")]),
  message("m2", "assistant", [call("c1")]),
  message("m3", "user", [result("c1")]),
  message("m4", "assistant", [call("c2")]),
  message("m5", "user", [result("c2")]),
  {
    kind: "compaction",
    v: 1,
    ts: 0,
    compaction: {
      trigger: "auto",
      summary,
      droppedMessageIds: ["m1", "m2", "m3"],
      tokensBefore: 100,
      tokensAfter: 50,
    },
  },
];

/** An Anthropic request of the main agent (it offers a tool) with these messages. */
const request = (messages: unknown[]): FakeProviderRequest => ({
  format: "anthropic",
  method: "POST",
  path: "/v1/messages",
  headers: {},
  apiKey: "k",
  body: { messages, tools: [{ name: "Bash" }] },
  stream: true,
  model: "m",
});
const use = (id: string) => ({ type: "tool_use", id, name: "Bash", input: {} });
const res = (id: string) => ({ type: "tool_result", tool_use_id: id, content: "ok" });
const user = (content: unknown[]) => ({ role: "user", content });
const assistant = (content: unknown[]) => ({ role: "assistant", content });

describe("mixedHistories", () => {
  it("accepts the old history and the new one", () => {
    const old = request([
      user([text("step 1")]),
      assistant([use("c1")]),
      user([res("c1")]),
      assistant([use("c2")]),
      user([res("c2"), text("step 2")]),
    ]);
    const compacted = request([
      user([text("[summary s1] the story so far")]),
      assistant([use("c2")]),
      user([res("c2"), text("step 2")]),
    ]);
    expect(mixedHistories(records, [old, compacted])).toEqual([]);
  });

  it("finds a summary sent beside a message it dropped, and a drop without its summary", () => {
    const both = request([
      user([text("[summary s1] the story so far")]),
      assistant([use("c1")]),
      user([res("c1")]),
      assistant([use("c2")]),
      user([res("c2")]),
    ]);
    const neither = request([assistant([use("c2")]), user([res("c2")])]);
    expect(mixedHistories(records, [both, neither])).toHaveLength(2);
  });
});
