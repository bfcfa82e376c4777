import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { EngineEventType, EventEnvelope } from "@z-engine/protocol";
import { reply } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { type DecisionModelKind, decisionModel, TURN_START_REMINDER } from "../decision-model.js";
import { type Harness, harness, loginProject, resultsOf, waitForCount } from "../harness.js";

// The rules of architecture.md "Decision seams", held with every feature On and every
// feature in Shadow: no seam allows, denies, cancels a turn or sets a badge; a failing or
// stalling decision model abstains (behaviour equals Off); Shadow advice is dropped but traced.

/** Every feature of the USES table (context pressure has its own scenario, decisions-pressure). */
const FEATURES = [
  "screen_request",
  "review_call",
  "after_call_notes",
  "stop_reminder",
  "completion_claim",
  "check_select",
  "relevance",
  "pressure_keep",
  "route",
  "ask_user",
  "turn_start",
  "turn_tone",
  "attention",
  // issue 46: the spec's list, 21 of 21
  "loop_guard",
  "search_rank",
  "user_signal",
  "hints",
  "task_view",
  "plan_suggest",
  "memory_suggest",
  "review_suggest",
  "custom_rules",
  "session_context",
  "prefetch",
];
const REMINDER = "Your answer says the work succeeded";
const QUESTION = "Which package manager should I use?";
/** A project whose AGENTS.md settles QUESTION, with a long test log (for relevance). */
const files = {
  ...loginProject,
  "AGENTS.md": "# Working here\n\nUse pnpm for every package command; never npm or yarn.\n",
  "logs/test-output.txt": Array.from({ length: 300 }, (_, i) =>
    i === 150
      ? "not ok 151 - login token expires at its expiry time"
      : `ok ${i + 1} - case ${i + 1} of the login suite passes as it should`,
  ).join("\n"),
};

function settings(mode: "on" | "shadow" | "off", timeoutMs = 2_000, features = FEATURES): string {
  return [
    "[permissions]",
    'allow = ["Bash(rm -rf src)", "Bash(git status)"]',
    'deny = ["Bash(git push --force)"]',
    // The seams' rules are read off a turn the verification layer leaves alone: with the
    // default (auto, trusted) the fixture's failing test would send the model back for more.
    "[verification]",
    'mode = "report"',
    "[decisions]",
    `timeout_ms = ${timeoutMs}`,
    "[experimental]",
    ...features.map((f) => `decisions_${f} = "${mode}"`),
  ].join("\n");
}

const calls = [
  { name: "Read", input: { file_path: "logs/test-output.txt" } },
  {
    name: "AskUserQuestion",
    input: {
      questions: [
        {
          question: QUESTION,
          options: [{ label: "pnpm" }, { label: "npm" }, { label: "yarn" }],
          multiSelect: false,
        },
      ],
    },
  },
  { name: "Bash", input: { command: "git status" } },
  { name: "Bash", input: { command: "rm -rf src" } },
  { name: "Bash", input: { command: "git push --force" } },
  { name: "Bash", input: { command: "touch c.txt" } },
  // prefetch: a listing of several files.
  { name: "Glob", input: { pattern: "*.{md,json}" } },
];

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

async function run(
  mode: "on" | "shadow" | "off",
  kind: DecisionModelKind,
  timeoutMs?: number,
  features = FEATURES,
) {
  const fast = decisionModel(kind);
  // The harness's own ScriptedModel stays the main model; the fast role gets the decision model.
  h = await harness({
    files,
    script: [
      reply.toolCalls(calls),
      reply.text("Done. All tests pass."),
      reply.text("Done. All tests pass."),
    ],
    userSettings: settings(mode, timeoutMs, features),
    // session_context: the project's files are offered from the repo map's listing.
    repoMap: true,
    // ask_user answers only from a trusted project's documents (issue 38, item 23).
    trusted: true,
    approve: (r) =>
      r.title.includes("rm -rf") ? { type: "deny", feedback: "no" } : { type: "allowOnce" },
    // The user picks npm: a result that differs from what the documents say.
    answer: (q) => Object.fromEntries(q.questions.map((x) => [x.question, "npm"])),
    fastClient: fast,
  });
  const summary = await h.session.run("tidy up the repository");
  return { h, fast, summary };
}

/** The events that show what a turn did, in order, without the decision layer's own. */
const OBSERVABLE: readonly EngineEventType[] = [
  "toolStarted",
  "toolFinished",
  "approvalRequested",
  "approvalResolved",
  "questionAsked",
  "turnFinished",
];
function observable(h: Harness) {
  return h.recorder.envelopes
    .map((e: EventEnvelope) => e.event)
    .filter((e) => OBSERVABLE.includes(e.type))
    .map((e) => {
      switch (e.type) {
        case "toolStarted":
          return `${e.type} ${e.title}`;
        case "toolFinished":
          return `${e.type} ${e.toolName} ${e.status}`;
        case "approvalRequested":
          return `${e.type} ${e.title} rules=${e.suggestedRules.length}`;
        case "approvalResolved":
          return `${e.type} ${e.decision.type}`;
        case "turnFinished":
          return `${e.type} ${e.outcome} ${e.badge.status}`;
        default:
          return e.type;
      }
    });
}

/** The text of each tool result of the first batch, in call order. */
const resultTexts = (h: Harness) =>
  resultsOf(h, 1).map((r) =>
    r.content
      .map((c) => (c.type === "text" ? c.text : ""))
      .join("")
      .replaceAll(h.home, "<home>")
      .replaceAll(h.repo.root, "<root>"),
  );
/** The opening message of the turn as the model got it. */
const openingText = (h: Harness) => JSON.stringify(h.model.requests[0]?.messages[0]?.content);

async function offBaseline() {
  const off = await run("off", "eager");
  const out = {
    events: observable(off.h),
    requests: off.h.model.requests.length,
    results: resultsOf(off.h, 1).map((r) => r.isError ?? false),
    texts: resultTexts(off.h),
    opening: openingText(off.h),
    badge: off.summary.badge.status,
  };
  await off.h.dispose();
  h = undefined;
  return out;
}

describe("decision rules with every feature On", { timeout: 60_000 }, () => {
  it("only escalates: Allow becomes Ask, Deny and Ask stay, the turn ends as it would, the badge is the engine's", async () => {
    const off = await offBaseline();
    const { h, summary } = await run("on", "eager");
    expect(summary.outcome).toBe("completed");
    expect(summary.badge.status).toBe(off.badge);
    const asked = h.recorder.ofType("approvalRequested");
    // review_call: the allowed `rm -rf src` became an Ask, with no rule to persist.
    expect(asked.find((a) => a.title.includes("rm -rf src"))).toMatchObject({
      suggestedRules: [],
      reason: expect.stringContaining("risky"),
    });
    // The policy's own Ask is unchanged (it keeps its suggested rules).
    const offTouch = off.events.find(
      (e) => e.startsWith("approvalRequested") && e.includes("touch"),
    );
    expect(observable(h)).toContain(offTouch);
    // The deny rule still denies, and no seam asked about it.
    expect(asked.some((a) => a.title.includes("git push"))).toBe(false);
    expect(h.recorder.ofType("toolFinished").map((f) => f.status)).toEqual([
      "ok",
      "ok",
      "ok",
      "denied",
      "denied",
      "ok",
      "ok",
    ]);
    const [read, asked0] = resultTexts(h);
    // relevance: the model got the picked lines and a pointer; the log's artifact holds it whole.
    expect(read).toContain("[lines 1-10 of 300]");
    expect(read).not.toContain("not ok 151");
    expect(read?.length).toBeLessThan((off.texts[0] ?? "").length / 4);
    const ref = read?.match(/stored as artifact:(\S+);/)?.[1] ?? "(none)";
    const stored = (await readdir(h.home, { recursive: true })).find((f) => f.endsWith(ref));
    expect(await readFile(join(h.home, stored ?? ref), "utf8")).toContain("not ok 151");
    // ask_user: the documents answered instead of the user, quoting AGENTS.md.
    expect(h.recorder.ofType("questionAsked")).toEqual([]);
    expect(off.events.some((e) => e.startsWith("questionAsked"))).toBe(true);
    expect(asked0).toContain(
      `"${QUESTION}" = "pnpm" (AGENTS.md: "Use pnpm for every package command;`,
    );
    // session_context: project files the Read rules allow are in the opening message.
    expect(openingText(h)).toContain("Files that may matter for this request:");
    expect(off.opening).not.toContain("Files that may matter");
    // prefetch: two of the listed files joined the next request.
    const second = JSON.stringify(h.model.requests[1]?.messages.at(-1));
    expect(second).toContain("Prefetched (you need not Read them again):");
    // turn_start: its reminder is in the opening message.
    expect(openingText(h)).toContain(TURN_START_REMINDER);
    expect(off.opening).not.toContain(TURN_START_REMINDER);
    // stop_reminder continued the run once (not twice), then completion_claim spoke up.
    expect(h.model.requests).toHaveLength(3);
    const reminded = h.model.requests[2]?.messages.at(-1)?.content ?? [];
    expect(reminded.some((b) => b.type === "text" && b.text.includes(REMINDER))).toBe(true);
    expect(h.recorder.ofType("completionClaimUnchecked")).toMatchObject([
      { claim: { text: "All tests pass.", kind: "tests" } },
    ]);
    expect(h.recorder.ofType("routeChosen")).toMatchObject([{ route: { effort: "low" } }]);
    expect(h.model.requests[0]?.effort).toBe("low");
    await waitForCount(h, "turnToneJudged", 1);
    // attention: each waiting approval got its urgency (live, beside the approval).
    await waitForCount(h, "urgencyScored", asked.length);
    expect(
      h.recorder
        .ofType("urgencyScored")
        .map((u) => u.urgency.item)
        .sort(),
    ).toEqual(asked.map((a) => a.approvalId).sort());
    const traces = h.recorder.ofType("decisionTraced").map((e) => e.trace);
    expect(traces.every((t) => t.mode === "on")).toBe(true);
    expect(traces.filter((t) => t.applied).map((t) => t.use)).toEqual(
      expect.arrayContaining([
        "review_call",
        "after_call_notes",
        "stop_reminder",
        "completion_claim",
        "relevance",
        "route",
        "ask_user",
        "turn_start",
        "turn_tone",
        "attention",
        "session_context",
        "prefetch",
      ]),
    );
    expect(h.recorder.ofType("turnFinished").map((t) => t.outcome)).toEqual(["completed"]);
  });

  it.each(["failing", "stalling"] as const)(
    "a %s decision model abstains: the turn is the same as with every feature Off",
    async (kind) => {
      const off = await offBaseline();
      // The uses that ask the fast model (the native classifiers have their own tests).
      const sidecarUses = FEATURES.filter((f) => f !== "review_call" && f !== "screen_request");
      const { h } = await run("on", kind, 10, sidecarUses);
      expect(observable(h)).toEqual(off.events);
      expect(h.model.requests).toHaveLength(off.requests);
      expect(resultTexts(h)).toEqual(off.texts);
      expect(openingText(h)).toBe(off.opening);
      expect(h.model.requests[0]?.effort).toBeUndefined();
      expect(h.recorder.ofType("routeChosen")).toEqual([]);
      expect(h.recorder.ofType("completionClaimUnchecked")).toEqual([]);
      const sidecarTraces = h.recorder.ofType("decisionTraced").map((e) => e.trace);
      expect(sidecarTraces.length).toBeGreaterThan(0);
      expect(sidecarTraces.every((t) => !t.applied && t.outcome !== "advice")).toBe(true);
      if (kind === "stalling")
        expect(sidecarTraces.some((t) => t.outcome === "timeout")).toBe(true);
    },
  );
});

describe("decision rules with every feature in Shadow", { timeout: 60_000 }, () => {
  it("changes nothing: the turn equals Off, and each use's advice is traced but not applied", async () => {
    const off = await offBaseline();
    const { h, summary } = await run("shadow", "eager");
    expect(observable(h)).toEqual(off.events);
    expect(h.model.requests).toHaveLength(off.requests);
    expect(resultsOf(h, 1).map((r) => r.isError ?? false)).toEqual(off.results);
    expect(resultTexts(h)).toEqual(off.texts);
    expect(openingText(h)).toBe(off.opening);
    expect(summary.badge.status).toBe(off.badge);
    expect(h.model.requests[0]?.effort).toBeUndefined();
    for (const type of [
      "routeChosen",
      "completionClaimUnchecked",
      "turnToneJudged",
      "urgencyScored",
    ] as const)
      expect(h.recorder.ofType(type)).toEqual([]);
    await waitForCount(h, "decisionTraced", 4);
    const traces = h.recorder.ofType("decisionTraced").map((e) => e.trace);
    expect(traces.every((t) => t.mode === "shadow" && !t.applied)).toBe(true);
    expect(traces.some((t) => t.use === "review_call" && t.outcome === "advice")).toBe(true);
    // Every use whose seam this turn reaches ran in Shadow (or was skipped, four being busy).
    for (const use of [
      "turn_start",
      "route",
      "relevance",
      "ask_user",
      "after_call_notes",
      "session_context",
      "prefetch",
    ])
      expect(
        await h.recorder.waitFor("decisionTraced", {
          trace: { use, mode: "shadow", applied: false },
        }),
      ).toBeDefined();
  });
});
