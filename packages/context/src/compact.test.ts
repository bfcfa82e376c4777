import type { MessageId } from "@z-engine/protocol";
import { describe, expect, it } from "vitest";
import { compact } from "./compact.js";
import { scriptedClient, text, transcript, user } from "./fixtures.test.helper.js";
import { findSplitPoint } from "./split.js";
import { createTokenEstimator } from "./tokens.js";

const estimator = createTokenEstimator();
const summaryScript = () => [
  { type: "textDelta" as const, text: "## Goal\nFix the parser" },
  { type: "textDelta" as const, text: " test." },
  { type: "stop" as const, reason: "endTurn" as const },
];
const base = { model: "fast", estimator, trigger: "auto" as const, keepRecentTokens: 1500 };

describe("compact", () => {
  it("summarises older history, naming what it dropped, and keeps the recent part", async () => {
    const messages = transcript(20, 2, 500);
    const { client, requests } = scriptedClient(summaryScript());
    const outcome = await compact({
      ...base,
      messages,
      client,
      newId: () => "msg_summary" as MessageId,
    });
    if (!outcome.ok) throw new Error(outcome.reason);
    const split = findSplitPoint(messages, base) ?? 0;
    const { compaction } = outcome;
    expect(compaction.droppedMessageIds).toEqual(messages.slice(0, split).map((m) => m.id));
    expect(outcome.messages).toEqual([compaction.summary, ...messages.slice(split)]);
    const summary = compaction.summary.content[0];
    const summaryText = summary?.type === "text" ? summary.text : "";
    expect(summaryText).toContain("## Goal\nFix the parser test.");
    expect(summaryText).toContain(
      `It replaces ${split} earlier messages (${messages[0]?.id} to ${messages[split - 1]?.id})`,
    );
    expect(summaryText).toMatch(/Tool calls dropped: Read ×\d+/);
    expect(summaryText).toContain("/p/call_0_0.ts");
    expect(compaction.tokensAfter).toBeLessThan(compaction.tokensBefore);
    // The summariser got plain text, no tools, and the dropped history.
    expect(requests[0]?.tools).toEqual([]);
    expect(requests[0]?.model).toBe("fast");
    const asked = requests[0]?.messages[0]?.content[0];
    expect(asked?.type === "text" && asked.text).toContain("[tool call Read call_0_0]");
  });

  it("keeps the task verbatim and writes a ledger of what it dropped", async () => {
    const messages = transcript(20, 2, 500).map((m, i) =>
      i === 2
        ? {
            ...m,
            content: m.content.map((b) =>
              b.type === "toolResult"
                ? {
                    ...b,
                    content: [{ type: "text" as const, text: "[stored as artifact:out-7.txt.]" }],
                  }
                : b,
            ),
          }
        : m,
    );
    const { client } = scriptedClient(summaryScript());
    const todos = ["[in_progress] Fix the tokenizer", "[pending] Run the parser tests"];
    const outcome = await compact({ ...base, messages, client, openTodos: todos });
    if (!outcome.ok) throw new Error(outcome.reason);
    const split = findSplitPoint(messages, base) ?? 0;
    const { compaction } = outcome;
    const summary = compaction.summary.content[0];
    const text = summary?.type === "text" ? summary.text : "";
    // The request was message 0, dropped: it is quoted whole, and so are the open todos.
    expect(text).toContain(
      "The user's latest request, verbatim:\n<request>\nFix the failing test in the parser.\n</request>",
    );
    expect(text).toContain(
      "Open todo items, verbatim:\n- [in_progress] Fix the tokenizer\n- [pending] Run the parser tests",
    );
    expect(compaction.ledger).toEqual({
      ranges: [{ first: messages[0]?.id, last: messages[split - 1]?.id, count: split }],
      artifacts: ["artifact:out-7.txt"],
      requestKept: true,
      todosKept: 2,
    });
  });

  it("does not quote a request the kept part still holds", async () => {
    const messages = [...transcript(20, 2, 500), user(text("Now rename parse to parseAll."))];
    const { client } = scriptedClient(summaryScript());
    const outcome = await compact({ ...base, messages, client });
    if (!outcome.ok) throw new Error(outcome.reason);
    const summary = outcome.compaction.summary.content[0];
    expect(summary?.type === "text" && summary.text).not.toContain("verbatim");
    expect(outcome.compaction.ledger?.requestKept).toBe(false);
    expect(outcome.messages.at(-1)).toEqual(messages.at(-1));
  });

  it("runs the PreCompact hook point, which can add instructions or stop it", async () => {
    const messages = transcript(20, 1, 500);
    const { client, requests } = scriptedClient(summaryScript());
    const seen: number[] = [];
    const ok = await compact({
      ...base,
      messages,
      client,
      beforeCompact: (plan) => {
        seen.push(plan.dropped.length + plan.kept.length);
        return { proceed: true, instructions: "Keep the failing test's name." };
      },
    });
    expect(ok.ok).toBe(true);
    expect(seen).toEqual([messages.length]);
    const asked = requests[0]?.messages[0]?.content[0];
    expect(asked?.type === "text" && asked.text).toContain(
      "Additional instructions: Keep the failing test's name.",
    );
    const stopped = await compact({
      ...base,
      messages,
      client,
      beforeCompact: async () => ({ proceed: false, reason: "busy" }),
    });
    expect(stopped).toEqual({ ok: false, stage: "hook", reason: "busy" });
    const thrown = await compact({
      ...base,
      messages,
      client,
      beforeCompact: () => {
        throw new Error("hook crashed");
      },
    });
    expect(thrown).toMatchObject({ ok: false, stage: "hook" });
  });

  it("reports a failed summary and leaves the history as it was", async () => {
    const messages = transcript(20, 1, 500);
    const copy = structuredClone(messages);
    const { client } = scriptedClient(
      [
        { type: "textDelta", text: "partial" },
        { type: "error", error: { kind: "overloaded", message: "try later" } },
      ],
      [{ type: "stop", reason: "endTurn" }],
    );
    expect(await compact({ ...base, messages, client })).toEqual({
      ok: false,
      stage: "model",
      reason: "summary failed (overloaded): try later",
    });
    expect(await compact({ ...base, messages, client })).toMatchObject({
      ok: false,
      reason: /no text/,
    });
    const throwing = {
      stream: () => {
        throw new Error("socket closed");
      },
    };
    expect(await compact({ ...base, messages, client: throwing })).toMatchObject({
      ok: false,
      stage: "model",
    });
    expect(messages).toEqual(copy);
  });

  it("does nothing when there is nothing to drop or when cancelled", async () => {
    const { client, requests } = scriptedClient(summaryScript());
    const small = [transcript(1)[0]].filter((m) => m !== undefined);
    expect(await compact({ ...base, messages: small, client })).toMatchObject({
      ok: false,
      stage: "nothing",
    });
    const controller = new AbortController();
    controller.abort();
    const messages = transcript(20, 1, 500);
    expect(await compact({ ...base, messages, client, signal: controller.signal })).toMatchObject({
      ok: false,
      stage: "cancelled",
    });
    expect(requests).toHaveLength(0);
    expect(text("x").type).toBe("text");
  });
});
