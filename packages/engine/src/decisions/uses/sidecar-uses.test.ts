import type { ScriptResponse } from "@z-engine/testkit";
import { describe, expect, it } from "vitest";
import { afterCallNotes, NOTE_MIN_CHARS } from "./after-call-notes.js";
import { checkSelect } from "./check-select.js";
import { completionClaim } from "./completion-claim.js";
import { route } from "./route.js";
import { STOP_REMINDER, stopReminder } from "./stop-reminder.js";
import { turnTone } from "./turn-tone.js";
import { scriptedUseContext } from "../../test-support/use-context.js";

const reply = (text: string): ScriptResponse => ({ events: [{ type: "textDelta", text }] });
const failure: ScriptResponse = { fault: { status: 529, message: "overloaded" } };

const ctxWith = (...responses: ScriptResponse[]) => scriptedUseContext(responses);

const stopInput = (answer: string, checksThisTurn = 0) => ({
  answer,
  filesChanged: true,
  checksThisTurn,
});

describe("stop_reminder", () => {
  it("reminds when the model finds a success claim without evidence", async () => {
    const { ctx, model } = ctxWith(reply('Sure: {"claimsSuccess": true, "hasEvidence": false}'));
    expect(await stopReminder.decide(stopInput("Fixed it, all tests pass."), ctx)).toEqual({
      reminder: STOP_REMINDER,
    });
    expect(model.requests[0]?.messages[0]?.content[0]).toMatchObject({
      text: expect.stringContaining("Fixed it"),
    });
  });

  it("asks nothing when a check ran this turn or the answer claims nothing", async () => {
    const { ctx, model } = ctxWith();
    expect(await stopReminder.decide(stopInput("All tests pass.", 1), ctx)).toBeUndefined();
    expect(await stopReminder.decide(stopInput("Here is the plan."), ctx)).toBeUndefined();
    expect(model.requests).toHaveLength(0);
  });

  it("abstains on a model failure, on prose and on JSON of the wrong shape", async () => {
    for (const r of [failure, reply("I think so"), reply('{"claimsSuccess": "yes"}')]) {
      const { ctx } = ctxWith(r);
      expect(await stopReminder.decide(stopInput("Fixed, tests pass."), ctx)).toBeUndefined();
    }
  });
});

describe("completion_claim", () => {
  it("returns a claim copied from the answer", async () => {
    const { ctx } = ctxWith(reply('{"claim": "All tests pass.", "kind": "tests"}'));
    const input = { answer: "I changed token.js. All tests pass.", checksThisTurn: 0 };
    expect(await completionClaim.decide(input, ctx)).toEqual({
      claim: "All tests pass.",
      kind: "tests",
    });
  });

  it("abstains for a claim the answer does not contain", async () => {
    const { ctx } = ctxWith(reply('{"claim": "The build is green.", "kind": "build"}'));
    const input = { answer: "I changed token.js.", checksThisTurn: 0 };
    expect(await completionClaim.decide(input, ctx)).toBeUndefined();
  });
});

describe("route", () => {
  it("picks an allowed effort and abstains for one outside the allowed set", async () => {
    const ok = ctxWith(reply('{"effort": "low", "reason": "a one-line question"}'));
    const input = {
      prompt: "What does ls do?",
      efforts: ["low", "medium", "high"] as const,
      models: [],
    };
    expect(await route.decide(input, ok.ctx)).toEqual({
      effort: "low",
      reason: "a one-line question",
    });
    const max = ctxWith(reply('{"effort": "max", "reason": "hard"}'));
    expect(await route.decide(input, max.ctx)).toBeUndefined();
  });

  it("picks an offered model, and drops a model it was not offered", async () => {
    const input = { prompt: "What does ls do?", efforts: [], models: ["small-model"] };
    const ok = ctxWith(reply('{"effort": null, "model": "small-model", "reason": "simple"}'));
    expect(await route.decide(input, ok.ctx)).toEqual({ model: "small-model", reason: "simple" });
    const other = ctxWith(reply('{"effort": "low", "model": "big-model", "reason": "x"}'));
    // Neither the effort (none allowed) nor the model (not offered) may apply: it abstains.
    expect(await route.decide(input, other.ctx)).toBeUndefined();
  });
});

describe("turn_tone", () => {
  it("judges the tone, and abstains on an unknown one", async () => {
    const { ctx } = ctxWith(reply('{"tone": "frustrated"}'), reply('{"tone": "angry"}'));
    const input = { prompt: "It is STILL broken!", answer: "Sorry.", changedPaths: [] };
    expect(await turnTone.decide(input, ctx)).toEqual({ tone: "frustrated" });
    expect(await turnTone.decide(input, ctx)).toBeUndefined();
  });
});

describe("check_select", () => {
  const input = {
    changedPaths: ["src/auth/token.ts"],
    checkIds: ["npm:test", "pytest", "cargo:test"] as never[],
  };

  it("skips only offered checks the model names", async () => {
    const { ctx } = ctxWith(reply('{"skip": ["pytest", "make:all"]}'));
    expect(await checkSelect.decide(input, ctx)).toEqual({ skip: ["pytest"] });
  });

  it("abstains when it would skip every check, or with one check only", async () => {
    const { ctx, model } = ctxWith(reply('{"skip": ["npm:test", "pytest", "cargo:test"]}'));
    expect(await checkSelect.decide(input, ctx)).toBeUndefined();
    expect(
      await checkSelect.decide({ ...input, checkIds: ["npm:test"] as never[] }, ctx),
    ).toBeUndefined();
    expect(model.requests).toHaveLength(1);
  });
});

describe("after_call_notes", () => {
  const input = (text: string) => ({ toolName: "Bash", input: {}, text, isError: false });

  it("writes one note for a long result", async () => {
    const { ctx } = ctxWith(reply('{"note": "3 test failures, all in auth/"}'));
    expect(await afterCallNotes.decide(input("x".repeat(NOTE_MIN_CHARS)), ctx)).toEqual({
      notes: ["3 test failures, all in auth/"],
    });
  });

  it("asks nothing for a short result, and abstains on a null note", async () => {
    const { ctx, model } = ctxWith(reply('{"note": null}'));
    expect(await afterCallNotes.decide(input("ok"), ctx)).toBeUndefined();
    expect(model.requests).toHaveLength(0);
    expect(await afterCallNotes.decide(input("y".repeat(NOTE_MIN_CHARS)), ctx)).toBeUndefined();
  });
});
