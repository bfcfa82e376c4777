import type { ScriptResponse } from "@z-engine/testkit";
import { describe, expect, it } from "vitest";
import { hints } from "./hints.js";
import { LOOP_REPEATS, loopGuard } from "./loop-guard.js";
import { memorySuggest } from "./memory-suggest.js";
import { planSuggest } from "./plan-suggest.js";
import { reviewSuggest } from "./review-suggest.js";
import { RANK_MIN_LINES, searchRank } from "./search-rank.js";
import { taskView } from "./task-view.js";
import { userSignal } from "./user-signal.js";
import { scriptedUseContext } from "../../test-support/use-context.js";

// The uses of issue 46, each against a scripted decision model: the acting answer, and the
// answers that must abstain (wrong shape, outside what was offered, a failure).

const reply = (text: string): ScriptResponse => ({ events: [{ type: "textDelta", text }] });
const failure: ScriptResponse = { fault: { status: 529, message: "overloaded" } };

const ctxWith = (...responses: ScriptResponse[]) => scriptedUseContext(responses, "turn_1");

const start = (prompt: string, more: object = {}) => ({
  prompt,
  mode: "ask" as const,
  exchanges: [],
  skills: [],
  ...more,
});

describe("task_view", () => {
  const exchanges = [
    { index: 0, prompt: "fix the parser", chars: 3000 },
    { index: 1, prompt: "rename a flag", chars: 3000 },
  ];
  it("sets aside only offered exchanges, and only on a new task", async () => {
    const { ctx } = ctxWith(reply('{"newTask": true, "notNeeded": [0, 7, 0]}'));
    expect(await taskView.decide(start("write docs", { exchanges }), ctx)).toEqual({
      setAside: [0],
    });
    const follow = ctxWith(reply('{"newTask": false, "notNeeded": [0, 1]}'));
    expect(await taskView.decide(start("and more", { exchanges }), follow.ctx)).toBeUndefined();
    const none = ctxWith();
    expect(await taskView.decide(start("write docs"), none.ctx)).toBeUndefined();
    expect(none.model.requests).toHaveLength(0);
  });
});

describe("plan_suggest and memory_suggest", () => {
  const large = "Migrate the whole storage layer to Postgres across all the packages";
  it("plan: a card for a large request in ask mode only", async () => {
    const { ctx } = ctxWith(reply('{"large": true}'));
    expect((await planSuggest.decide(start(large), ctx))?.suggestion?.kind).toBe("plan");
    const other = ctxWith(reply('{"large": true}'));
    expect(await planSuggest.decide(start(large, { mode: "bypass" }), other.ctx)).toBeUndefined();
    expect(await planSuggest.decide(start(large), ctxWith(failure).ctx)).toBeUndefined();
  });
  it("memory: a rule sharing the message's words, else nothing", async () => {
    const { ctx } = ctxWith(reply('{"rule": "Always use pnpm"}'));
    const advice = await memorySuggest.decide(start("always use pnpm from now on"), ctx);
    expect(advice?.suggestion).toMatchObject({ kind: "memory", detail: "Always use pnpm" });
    const unrelated = ctxWith(reply('{"rule": "Delete the tests"}'));
    expect(await memorySuggest.decide(start("always use pnpm"), unrelated.ctx)).toBeUndefined();
  });
});

describe("review_suggest", () => {
  const input = (changedPaths: string[]) => ({ prompt: "p", answer: "a", changedPaths });
  it("path rules first, the model for the rest, nothing without changes", async () => {
    const rules = ctxWith();
    expect(
      (await reviewSuggest.decide(input(["src/auth/login.ts"]), rules.ctx))?.suggestion?.kind,
    ).toBe("review");
    expect(rules.model.requests).toHaveLength(0);
    expect(
      await reviewSuggest.decide(input(["README.md"]), ctxWith(reply('{"review": false}')).ctx),
    ).toBeUndefined();
    expect(await reviewSuggest.decide(input([]), ctxWith().ctx)).toBeUndefined();
  });
});

describe("loop_guard", () => {
  it("notes the same call and result at the third time in a turn, once", async () => {
    const { ctx, model } = ctxWith();
    const call = {
      toolName: "Bash",
      input: { command: "npm test" },
      text: "1 failed",
      isError: false,
    };
    const notes = [];
    for (let i = 0; i < LOOP_REPEATS + 2; i++) notes.push(await loopGuard.decide(call, ctx));
    expect(notes.map((n) => n !== undefined)).toEqual([false, false, true, false, false]);
    const other = await loopGuard.decide({ ...call, text: "0 failed" }, ctx);
    expect(other).toBeUndefined();
    expect(model.requests).toHaveLength(0);
  });
});

describe("user_signal and hints", () => {
  it("user_signal: a reminder for a correction, nothing for a plain request", async () => {
    const yes = ctxWith(reply('{"correcting": true, "frustrated": false}'));
    expect(
      (await userSignal.decide(start("no, I said the other file"), yes.ctx))?.reminders,
    ).toHaveLength(1);
    const no = ctxWith(reply('{"correcting": false, "frustrated": false}'));
    expect(await userSignal.decide(start("add a test"), no.ctx)).toBeUndefined();
  });
  it("hints: only offered skills that share words, each once per chat", async () => {
    const skills = [
      { name: "pdf-forms", description: "fill in pdf forms" },
      { name: "spreadsheets", description: "edit excel sheets" },
    ];
    const { ctx } = ctxWith(
      reply('{"fits": ["pdf-forms", "rm-rf"]}'),
      reply('{"fits": ["pdf-forms"]}'),
    );
    const input = start("fill the pdf forms in docs/", { skills });
    expect((await hints.decide(input, ctx))?.reminders?.[0]).toContain("pdf-forms");
    expect((await hints.decide(input, ctx))?.reminders?.[0] ?? "").not.toContain("pdf-forms");
  });
});

describe("search_rank", () => {
  const text = Array.from({ length: RANK_MIN_LINES }, (_, i) => `src/f${i}.ts:1:match`).join("\n");
  it("keeps the picked lines of a long Grep result as ranges; other tools abstain", async () => {
    const { ctx } = ctxWith(reply('{"keep": [3, 1, 2, 10, 999]}'));
    expect(await searchRank.decide({ toolName: "Grep", input: {}, text }, ctx)).toEqual({
      keepLines: [
        [1, 3],
        [10, 10],
      ],
    });
    const bash = ctxWith(reply('{"keep": [1]}'));
    expect(
      await searchRank.decide({ toolName: "Bash", input: {}, text }, bash.ctx),
    ).toBeUndefined();
    expect(bash.model.requests).toHaveLength(0);
  });
});
