import type { ContentBlock, Message, MessageId } from "@z-engine/protocol";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  assistant,
  call,
  expectWellFormed,
  result,
  text,
  transcript,
  user,
} from "./fixtures.test.helper.js";
import { INTERRUPTED_RESULT_TEXT, makeWellFormed } from "./well-formed.js";

describe("makeWellFormed", () => {
  it("passes a valid transcript through, reusing its content", () => {
    const messages = transcript(3);
    const out = makeWellFormed(messages);
    expect(out).toEqual(messages.map(({ role, content }) => ({ role, content })));
    expect(out[1]?.content).toBe(messages[1]?.content);
    expect(out.some((m) => "id" in m)).toBe(false);
  });

  it("answers an interrupted call and drops orphan results", () => {
    const out = makeWellFormed([
      user(text("go"), result("ghost")),
      assistant(call("a"), call("b")),
      user(result("b", "B"), text("steer")),
    ]);
    expect(out).toEqual([
      { role: "user", content: [text("go")] },
      { role: "assistant", content: [call("a"), call("b")] },
      {
        role: "user",
        content: [
          {
            type: "toolResult",
            toolUseId: "a",
            content: [text(INTERRUPTED_RESULT_TEXT)],
            isError: true,
          },
          result("b", "B"),
          text("steer"),
        ],
      },
    ]);
  });

  it("closes calls before a second assistant message (a failed turn) and merges users", () => {
    const out = makeWellFormed([
      user(text("one")),
      user(text("two")),
      assistant(call("a")),
      assistant(text("retry")),
      assistant(text("more")),
      user(result("a")),
    ]);
    expect(out.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(out[0]?.content).toEqual([text("one"), text("two")]);
    expect(out[3]?.content).toEqual([text("retry"), text("more")]);
    expectWellFormed(out);
  });

  it("drops empty messages, blank text and leading assistant messages", () => {
    const out = makeWellFormed([
      assistant(text("hello?"), call("x")),
      user(result("x"), text("  ")),
      user(text("")),
      user(text("real prompt")),
      assistant(text("")),
    ]);
    expect(out).toEqual([{ role: "user", content: [text("real prompt")] }]);
    expect(makeWellFormed([])).toEqual([]);
  });

  it("closes calls left open at the end and drops repeated call ids", () => {
    const out = makeWellFormed([
      user(text("go")),
      assistant(call("a"), call("a")),
      user(result("a")),
      assistant(call("a")),
    ]);
    expect(out).toHaveLength(3);
    expect(out[1]?.content).toEqual([call("a")]);
    expectWellFormed(out);
  });

  it("never changes the conversion of a well-formed prefix when messages are appended", () => {
    const messages = transcript(10);
    const before = JSON.stringify(makeWellFormed(messages));
    const after = JSON.stringify(makeWellFormed([...messages, assistant(text("done"))]));
    expect(after.startsWith(before.slice(0, -1))).toBe(true);
  });
});

const ids = ["a", "b", "c", "d"];
const blockArb: fc.Arbitrary<ContentBlock> = fc.oneof(
  fc.constantFrom("", " ", "hi", "text").map((t) => text(t)),
  fc.constantFrom(...ids).map((id) => call(id)),
  fc.constantFrom(...ids, "zz").map((id) => result(id)),
  fc.constant<ContentBlock>({ type: "thinking", thinking: "", signature: undefined }),
  fc.constant<ContentBlock>({ type: "thinking", thinking: "hmm", signature: "sig" }),
);
const messageArb: fc.Arbitrary<Message> = fc.record({
  id: fc.constant("m" as MessageId),
  role: fc.constantFrom("user" as const, "assistant" as const),
  content: fc.array(blockArb, { maxLength: 5 }),
});

describe("makeWellFormed on random broken transcripts", () => {
  it("always yields a well-formed request that keeps every non-empty user text", () => {
    fc.assert(
      fc.property(fc.array(messageArb, { maxLength: 25 }), (messages) => {
        const out = makeWellFormed(messages);
        expectWellFormed(out);
        const texts = (ms: readonly { role: string; content: ContentBlock[] }[]) =>
          ms.flatMap((m) => m.content).filter((b) => b.type === "text" && b.text.trim() !== "");
        const firstUser = messages.findIndex((m) => m.role === "user" && texts([m]).length > 0);
        if (firstUser >= 0) expect(texts(out).length).toBeGreaterThan(0);
        expect(makeWellFormed(messages)).toEqual(out);
      }),
      { numRuns: 1500 },
    );
  });
});
