import type { ScriptedModel, ScriptResponse } from "@z-engine/testkit";
import { describe, expect, it } from "vitest";
import { askUser } from "./ask-user.js";
import { pressureKeep } from "./pressure-keep.js";
import { normalizeRanges, numberedDigest, RELEVANCE_MIN_LINES, relevance } from "./relevance.js";
import { MAX_TURN_START_REMINDERS, turnStart } from "./turn-start.js";
import { scriptedUseContext } from "../../test-support/use-context.js";

const reply = (text: string): ScriptResponse => ({ events: [{ type: "textDelta", text }] });
const failure: ScriptResponse = { fault: { status: 529, message: "overloaded" } };

const ctxWith = (...responses: ScriptResponse[]) => scriptedUseContext(responses);

const question = (m: ScriptedModel, i = 0) =>
  (m.requests[i]?.messages[0]?.content[0] as { text: string } | undefined)?.text ?? "";

describe("turn_start", () => {
  it("adds at most two trimmed reminders from the model's list", async () => {
    const { ctx, model } = ctxWith(
      reply('{"reminders": [" plan only: edit no file ", "", "a", "b"]}'),
    );
    const advice = await turnStart.decide(
      { prompt: "Plan the auth refactor", mode: "ask", exchanges: [], skills: [] },
      ctx,
    );
    expect(advice).toEqual({ reminders: ["plan only: edit no file", "a"] });
    expect(advice?.reminders?.length).toBeLessThanOrEqual(MAX_TURN_START_REMINDERS);
    expect(question(model)).toContain("Plan the auth refactor");
  });

  it("abstains on an empty list, a failure, prose, and asks nothing for an empty prompt", async () => {
    for (const r of [reply('{"reminders": []}'), failure, reply("be careful")]) {
      const { ctx } = ctxWith(r);
      expect(
        await turnStart.decide({ prompt: "fix it", mode: "ask", exchanges: [], skills: [] }, ctx),
      ).toBeUndefined();
    }
    const { ctx, model } = ctxWith();
    expect(
      await turnStart.decide({ prompt: "  ", mode: "ask", exchanges: [], skills: [] }, ctx),
    ).toBeUndefined();
    expect(model.requests).toHaveLength(0);
  });
});

const result = (id: string, toolName = "Read") => ({
  toolUseId: id,
  toolName,
  summary: `src/${id}.ts`,
  chars: 5_000,
});

describe("pressure_keep", () => {
  const input = {
    task: "fix the login test",
    planned: [result("a"), result("b")],
    candidates: [result("c"), result("d")],
  };

  it("keeps only planned ids and adds only candidate ids", async () => {
    const { ctx, model } = ctxWith(reply('{"keep": ["a", "c", "zz"], "add": ["d", "b", "d"]}'));
    expect(await pressureKeep.decide(input, ctx)).toEqual({ keep: ["a"], add: ["d"] });
    expect(question(model)).toContain("a Read src/a.ts (5000 characters)");
  });

  it("abstains when nothing offered is named, on a failure, and with no plan", async () => {
    for (const r of [reply('{"keep": ["zz"], "add": ["a"]}'), failure]) {
      const { ctx } = ctxWith(r);
      expect(await pressureKeep.decide(input, ctx)).toBeUndefined();
    }
    const { ctx, model } = ctxWith();
    expect(await pressureKeep.decide({ ...input, planned: [] }, ctx)).toBeUndefined();
    expect(model.requests).toHaveLength(0);
  });
});

const longOutput = (n: number) =>
  Array.from({ length: n }, (_, i) =>
    i === 150 ? "FAIL test/token.test.js: expected true" : `ok ${i + 1} - case ${"x".repeat(80)}`,
  ).join("\n");

describe("relevance", () => {
  const input = (text: string) => ({ toolName: "Bash", input: {}, text });

  it("keeps the model's ranges, clamped and merged, for a long result", async () => {
    const { ctx, model } = ctxWith(reply('{"keep": [[149, 152], [151, 155], [290, 400]]}'));
    expect(await relevance.decide(input(longOutput(300)), ctx)).toEqual({
      keepLines: [
        [149, 155],
        [290, 300],
      ],
    });
    // The digest shows the failing line with its number, though the whole does not fit.
    expect(question(model)).toContain("151: FAIL test/token.test.js");
    expect(question(model)).toContain("…");
  });

  it("abstains for short results, empty picks and picks keeping most of the result", async () => {
    const { ctx, model } = ctxWith(reply('{"keep": []}'), reply('{"keep": [[1, 250]]}'));
    expect(await relevance.decide(input(longOutput(RELEVANCE_MIN_LINES - 1)), ctx)).toBeUndefined();
    expect(model.requests).toHaveLength(0);
    expect(await relevance.decide(input(longOutput(300)), ctx)).toBeUndefined();
    expect(await relevance.decide(input(longOutput(300)), ctx)).toBeUndefined();
  });

  it("numbers every line when they fit, and merges touching ranges", () => {
    expect(numberedDigest(["a", "b"])).toBe("1: a\n2: b");
    expect(
      normalizeRanges(
        [
          [5, 3],
          [0, 2],
          [3, 4],
        ],
        10,
      ),
    ).toEqual([[1, 4]]);
  });
});

describe("ask_user", () => {
  const docs = [
    { path: "README.md", text: "# Demo\n\nA login demo." },
    {
      path: "AGENTS.md",
      text: "# Agents\n\nUse pnpm for every package command; never npm or yarn.\n\nTests: node --test.",
    },
  ];
  const questions = [{ question: "Which package manager?", options: ["npm", "pnpm", "yarn"] }];
  const answer = (a: Record<string, unknown>) => reply(JSON.stringify({ answers: [a] }));
  const good = {
    question: "Which package manager?",
    answer: "pnpm",
    source: "AGENTS.md",
    quote: "Use pnpm for every package command;",
  };

  it("answers from a document, with a choice and a quote found in it", async () => {
    const { ctx, model } = ctxWith(answer(good));
    expect(await askUser.decide({ questions, docs }, ctx)).toEqual({
      answers: [{ ...good }],
    });
    expect(question(model)).toContain("[AGENTS.md]\nUse pnpm for every package command");
    expect(question(model)).not.toContain("A login demo");
  });

  it.each([
    ["a quote the document does not hold", { ...good, quote: "Always use pnpm, it is fast." }],
    ["an answer outside the choices", { ...good, answer: "bun" }],
    ["a document not offered", { ...good, source: "docs/x.md" }],
    ["a null answer", { ...good, answer: null }],
    ["another question", { ...good, question: "Which test runner?" }],
  ])("abstains for %s", async (_why, a) => {
    const { ctx } = ctxWith(answer(a));
    expect(await askUser.decide({ questions, docs }, ctx)).toBeUndefined();
  });

  it("abstains unless every question is answered, and without documents", async () => {
    const two = [...questions, { question: "Which branch?", options: ["main", "dev"] }];
    const { ctx } = ctxWith(answer(good));
    expect(await askUser.decide({ questions: two, docs }, ctx)).toBeUndefined();
    const none = ctxWith();
    expect(await askUser.decide({ questions, docs: [] }, none.ctx)).toBeUndefined();
    expect(none.model.requests).toHaveLength(0);
  });
});
