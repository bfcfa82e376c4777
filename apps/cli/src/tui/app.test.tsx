import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { EngineCommand, EngineEvent, EventEnvelope } from "@z-engine/protocol";
import { emptyUsage } from "@z-engine/protocol";
import { render } from "ink-testing-library";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { App } from "./app.js";
import { openHistory } from "./history.js";
import { ViewStore } from "./store.js";
import { initialView } from "./view.js";

const KEY = {
  up: "\u001B[A",
  down: "\u001B[B",
  tab: "\t",
  shiftTab: "\u001B[Z",
  enter: "\r",
  esc: "\u001B",
};

let home: string;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), "zeng-tui-"));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

let seq = 0;
const envelope = (event: EngineEvent): EventEnvelope =>
  ({ v: 2, sessionId: "ses_test", seq: seq++, ts: 0, event }) as EventEnvelope;

function mount(options: { files?: string[]; clock?: () => number; trusted?: boolean } = {}) {
  const store = new ViewStore({
    ...initialView({
      mode: "ask",
      model: "m",
      usage: emptyUsage(),
      trusted: options.trusted ?? true,
    }),
    commands: [{ name: "review", description: "review the diff", argumentHint: "[focus]" }],
  });
  let refreshed = 0;
  const sent: EngineCommand[] = [];
  let exited = 0;
  const history = openHistory(home, "/project");
  const app = render(
    <App
      store={store}
      send={(c) => sent.push(c)}
      exit={() => exited++}
      history={history}
      refreshCommands={() => refreshed++}
      files={() => options.files ?? []}
      now={options.clock ?? Date.now}
    />,
  );
  const frame = () => app.lastFrame() ?? "";
  /** Polls the frame (ink renders on its own schedule) until `test` holds, for at most 2 s. */
  const until = async (test: (f: string) => boolean) => {
    const deadline = Date.now() + 2000;
    while (!test(frame())) {
      if (Date.now() > deadline) throw new Error(`frame never matched:\n${frame()}`);
      await new Promise((r) => setTimeout(r, 5));
    }
    return frame();
  };
  const press = async (...keys: string[]) => {
    for (const k of keys) {
      // Each key is its own read (as when a person types); the next turn of the event loop
      // comes after ink handled it.
      app.stdin.write(k);
      await new Promise((r) => setImmediate(r));
    }
  };
  const emit = (event: EngineEvent) => store.dispatch(envelope(event));
  return {
    app,
    store,
    sent,
    frame,
    until,
    press,
    emit,
    exited: () => exited,
    refreshed: () => refreshed,
  };
}

const approval = (id: string, title: string, rule?: string): EngineEvent => ({
  type: "approvalRequested",
  approvalId: id as never,
  toolCallId: `call_${id}` as never,
  toolName: "Bash",
  title,
  reason: "runs a command",
  suggestedRules: rule ? [rule] : [],
});

describe("approval cards", () => {
  it("answers two asks in any order: Tab to the second, then deny the first with typed feedback", async () => {
    const t = mount();
    t.emit({
      type: "turnStarted",
      turnId: "turn_1" as never,
      userMessageId: "msg_1" as never,
      prompt: "go",
    });
    t.emit(approval("ap_1", "Bash npm test", "Bash(npm test:*)"));
    t.emit(approval("ap_2", "Bash rm -rf build"));
    const card = await t.until((f) => f.includes("Always allow in this chat: Bash(npm test:*)"));
    expect(card).toContain("Always allow in this project: Bash(npm test:*)");
    expect(card).toContain("1 of 2");
    await t.press(KEY.tab);
    await t.until((f) => f.includes("Allow Bash rm -rf build?"));
    await t.press("1");
    expect(t.sent.at(-1)).toEqual({
      type: "resolveApproval",
      approvalId: "ap_2",
      decision: { type: "allowOnce" },
    });
    t.emit({
      type: "approvalResolved",
      approvalId: "ap_2" as never,
      toolCallId: "call_ap_2" as never,
      decision: { type: "allowOnce" },
      by: "user",
    });
    await t.until((f) => f.includes("Allow Bash npm test?") && !f.includes("1 of 2"));
    await t.press("n", "o", "t", " ", "y", "e", "t");
    await t.until((f) => f.includes("✎ not yet"));
    await t.press(KEY.enter);
    expect(t.sent.at(-1)).toEqual({
      type: "resolveApproval",
      approvalId: "ap_1",
      decision: { type: "deny", feedback: "not yet" },
    });
  });

  it("in a folder that is not trusted, saving a rule says it needs trust and trusts the folder first", async () => {
    const t = mount({ trusted: false });
    t.emit(approval("ap_1", "Bash npm test", "Bash(npm test:*)"));
    const card = await t.until((f) => f.includes("Allow Bash npm test?"));
    expect(card).toContain("3. Trust this folder and always allow in it: Bash(npm test:*)");
    expect(card).toContain("(saving a rule needs trust)");
    await t.press("3");
    expect(t.sent.slice(-2)).toEqual([
      { type: "trustWorkspace", trusted: true },
      {
        type: "resolveApproval",
        approvalId: "ap_1",
        decision: { type: "allowProject", rule: "Bash(npm test:*)" },
      },
    ]);
  });

  it("always-in-this-chat sends the suggested rule", async () => {
    const t = mount();
    t.emit(approval("ap_1", "Bash npm test", "Bash(npm test:*)"));
    await t.until((f) => f.includes("Allow Bash npm test?"));
    await t.press("2");
    expect(t.sent.at(-1)).toEqual({
      type: "resolveApproval",
      approvalId: "ap_1",
      decision: { type: "allowSession", rule: "Bash(npm test:*)" },
    });
  });
});

describe("questions, plans and trust", () => {
  it("answers an AskUserQuestion by number", async () => {
    const t = mount();
    t.emit({
      type: "questionAsked",
      question: {
        id: "q_1" as never,
        questions: [
          {
            question: "Which database?",
            options: [{ label: "Postgres" }, { label: "SQLite" }],
            multiSelect: false,
          },
        ],
      },
    });
    await t.until((f) => f.includes("Which database?"));
    await t.press("2");
    expect(t.sent.at(-1)).toEqual({
      type: "answerQuestion",
      questionId: "q_1",
      answers: { "Which database?": "SQLite" },
    });
  });

  it("approves a plan into acceptEdits", async () => {
    const t = mount();
    t.emit({
      type: "planProposed",
      plan: { id: "plan_1" as never, plan: "# Plan\n- edit token.js" },
    });
    await t.until((f) => f.includes("Plan for review") && f.includes("• edit token.js"));
    await t.press("1");
    expect(t.sent.at(-1)).toEqual({
      type: "resolvePlan",
      planId: "plan_1",
      approved: true,
      mode: "acceptEdits",
    });
  });

  it("asks for trust first, and the answer dismisses the card", async () => {
    const t = mount();
    t.emit({ type: "trustRequired", projectRoot: "/project", withheld: ["hooks", "mcp servers"] });
    await t.until((f) => f.includes("Do you trust /project?") && f.includes("hooks, mcp servers"));
    await t.press("1");
    expect(t.sent.at(-1)).toEqual({ type: "trustWorkspace", trusted: true });
    await t.until((f) => !f.includes("Do you trust"));
  });
});

describe("the input", () => {
  it("edits several lines, submits, and recalls the prompt with Up from the persisted history", async () => {
    const t = mount();
    await t.press("a", "\\", KEY.enter, "b");
    await t.until((f) => f.includes("› a") && f.includes("  b"));
    await t.press(KEY.enter);
    expect(t.sent.at(-1)).toEqual({ type: "submit", text: "a\nb" });
    t.app.unmount();
    const again = mount();
    await again.press(KEY.up);
    await again.until((f) => f.includes("› a") && f.includes("  b"));
    expect(openHistory(home, "/project").entries).toEqual(["a\nb"]);
  });

  it("takes a large unbracketed paste whole, collapsed, and sends all of it", async () => {
    const t = mount();
    const pasted = Array.from({ length: 500 }, (_, i) => `line ${i}`).join("\n");
    t.app.stdin.write(pasted);
    await t.until((f) => f.includes("› [pasted 500 lines]"));
    expect(t.frame()).not.toContain("line 499");
    await t.press(KEY.enter);
    expect(t.sent.at(-1)).toEqual({ type: "submit", text: pasted });
  });

  it("takes a bracketed paste in several reads as one insertion, line breaks kept, not sent", async () => {
    const t = mount();
    await t.press("a", "b", " ");
    // The terminal's markers, the text in pieces (one piece a lone carriage return), the end.
    await t.press("\u001B[200~", "one\rtwo", "\r", "three", "\u001B[201~");
    await t.until((f) => f.includes("› ab one"));
    const frame = t.frame();
    expect(frame).toContain("two");
    expect(frame).toContain("three");
    expect(t.sent).toEqual([]);
    await t.press(KEY.enter);
    expect(t.sent.at(-1)).toEqual({ type: "submit", text: "ab one\ntwo\nthree" });
  });

  it("collapses a large bracketed paste to a placeholder; two of one size are told apart", async () => {
    const t = mount();
    const big = Array.from({ length: 12 }, (_, i) => `row ${i}`);
    const paste = (lines: string[]) => t.press("\u001B[200~", lines.join("\r"), "\u001B[201~");
    await paste(big);
    await t.press(" ", "+", " ");
    await paste(big.map((l) => l.toUpperCase()));
    await t.until((f) => f.includes("› [pasted 12 lines] + [pasted 12 lines #2]"));
    expect(t.sent).toEqual([]);
    await t.press(KEY.enter);
    expect(t.sent.at(-1)).toEqual({
      type: "submit",
      text: `${big.join("\n")} + ${big.map((l) => l.toUpperCase()).join("\n")}`,
    });
    // The next prompt starts without the old pastes.
    await t.press("[", "p", KEY.enter);
    expect(t.sent.at(-1)).toEqual({ type: "submit", text: "[p" });
  });

  it("pastes into an open card's field on one line; Ctrl+C drops a paste whose end never came", async () => {
    const t = mount();
    t.emit({
      type: "turnStarted",
      turnId: "turn_1" as never,
      userMessageId: "msg_1" as never,
      prompt: "go",
    });
    t.emit(approval("ap_1", "Bash rm -rf build"));
    await t.until((f) => f.includes("Allow Bash rm -rf build?"));
    await t.press("\u001B[200~", "not that\rfolder", "\u001B[201~");
    await t.until((f) => f.includes("✎ not that folder"));
    await t.press(KEY.enter);
    expect(t.sent.at(-1)).toEqual({
      type: "resolveApproval",
      approvalId: "ap_1",
      decision: { type: "deny", feedback: "not that folder" },
    });
    // The card stays until the engine answers (none here); the spinner redraws meanwhile.
    await t.press("\u001B[200~", "half a paste");
    await t.press("\u0003");
    expect(t.sent.at(-1)).toEqual({ type: "cancel" });
    await t.press("o", "k");
    await t.until((f) => f.includes("✎ ok"));
    expect(t.frame()).not.toContain("half a paste");
  });

  it("completes /commands from the catalog and @files from the project", async () => {
    const t = mount({ files: ["src/auth/token.js", "README.md"] });
    await t.press("/");
    expect(t.refreshed()).toBe(1);
    await t.press("r", "e");
    await t.until((f) => f.includes("/review") && f.includes("[focus]  review the diff"));
    expect(t.refreshed()).toBe(1);
    await t.press(KEY.tab);
    await t.until((f) => f.includes("› /review "));
    await t.press("@", "t", "o", "k");
    await t.until((f) => f.includes("@src/auth/token.js"));
    await t.press(KEY.tab);
    await t.until((f) => f.includes("› /review @src/auth/token.js "));
  });

  it("cycles the mode with Shift+Tab and steers a running turn", async () => {
    const t = mount();
    await t.press(KEY.shiftTab);
    expect(t.sent.at(-1)).toEqual({ type: "setMode", mode: "acceptEdits" });
    t.emit({ type: "modeChanged", mode: "acceptEdits" });
    await t.until((f) => f.includes("acceptEdits (⇧⇥)"));
    t.emit({
      type: "turnStarted",
      turnId: "turn_1" as never,
      userMessageId: "msg_1" as never,
      prompt: "go",
    });
    await t.press("x", KEY.enter);
    expect(t.sent.at(-1)).toEqual({ type: "steer", text: "x" });
    await t.until((f) => f.includes("↳ x"));
  });

  it("Esc interrupts a running turn; Esc Esc when idle opens the rewind picker", async () => {
    let now = 1000;
    const t = mount({ clock: () => now });
    t.emit({
      type: "turnStarted",
      turnId: "turn_1" as never,
      userMessageId: "msg_1" as never,
      prompt: "first prompt",
    });
    await t.press(KEY.esc);
    expect(t.sent.at(-1)).toEqual({ type: "interrupt" });
    t.emit({
      type: "turnFinished",
      turnId: "turn_1" as never,
      outcome: "cancelled",
      usage: emptyUsage(),
      badge: { status: "notApplicable", reason: "no change", checks: [] },
      durationMs: 5,
    });
    await t.until((f) => f.includes("── cancelled"));
    now += 5000;
    await t.press(KEY.esc);
    now += 100;
    await t.press(KEY.esc);
    await t.until((f) => f.includes("Rewind: pick the message"));
    await t.press(KEY.enter, "3");
    expect(t.sent.at(-1)).toEqual({ type: "rewind", messageId: "msg_1", restore: "code" });
  });

  it("Ctrl+C cancels a running turn, then exits on a second press when idle", async () => {
    const t = mount();
    t.emit({
      type: "turnStarted",
      turnId: "turn_1" as never,
      userMessageId: "msg_1" as never,
      prompt: "go",
    });
    await t.press("\u0003");
    expect(t.sent.at(-1)).toEqual({ type: "cancel" });
    t.emit({
      type: "turnFinished",
      turnId: "turn_1" as never,
      outcome: "cancelled",
      usage: emptyUsage(),
      badge: { status: "notApplicable", reason: "no change", checks: [] },
      durationMs: 5,
    });
    await t.until((f) => f.includes("── cancelled"));
    await t.press("\u0003");
    expect(t.exited()).toBe(1);
  });
});
