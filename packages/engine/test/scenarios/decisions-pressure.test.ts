import { createTokenEstimator } from "@z-engine/context";
import type { ModelRequest, ToolResultBlock } from "@z-engine/protocol";
import { type FixtureFiles, reply } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { type DecisionModelKind, decisionModel } from "../decision-model.js";
import { type Harness, harness, loginProject } from "../harness.js";

// The context-pressure seam (architecture.md "One round" step 2) with every feature On and in
// Shadow: above half the window old tool results are cleared; pressure_keep may keep planned
// clears or add others, keeping wins; Shadow and a failing model leave the plan as it is.

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
];

/** Six files of about 8,000 characters each, in 40 lines (below relevance's 80). */
const files: FixtureFiles = { ...loginProject };
for (let f = 1; f <= 6; f++)
  files[`notes/part-${f}.txt`] = Array.from(
    { length: 40 },
    (_, i) =>
      `part ${f} line ${i + 1}: ${"the quick brown fox jumps over the lazy dog ".repeat(4)}`,
  ).join("\n");
const read = (f: number) => ({ name: "Read", input: { file_path: `notes/part-${f}.txt` } });

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

/** Two rounds of three reads, then an answer; the window is `window` tokens (or the default). */
async function run(mode: "on" | "shadow" | "off", kind: DecisionModelKind, window?: number) {
  const fast = decisionModel(kind);
  let main: Harness | undefined;
  const settings = [
    "[decisions]",
    "timeout_ms = 2000",
    "[experimental]",
    ...FEATURES.map((f) => `decisions_${f} = "${mode}"`),
  ].join("\n");
  main = await harness({
    files,
    script: [
      reply.toolCalls([read(1), read(2), read(3)]),
      reply.toolCalls([read(4), read(5), read(6)]),
      reply.text("I read the six parts."),
    ],
    userSettings: settings,
    engine: {
      clientFactory: ({ role }) =>
        role === "fast"
          ? fast
          : { stream: (request, signal) => (main as Harness).model.stream(request, signal) },
      ...(window
        ? {
            catalog: {
              info: () => ({ contextWindow: window, maxOutputTokens: 8_000, vision: false }),
              price: (_m, usage) => ({ ...usage, costUsd: 0 }),
            },
          }
        : {}),
    },
  });
  h = main;
  const summary = await h.session.run("read the notes");
  return { h, summary };
}

/** A window that puts the third request at about 65% of it: clearing (50%), no compaction (80%). */
async function calibratedWindow(): Promise<number> {
  const { h } = await run("off", "eager");
  const third = h.model.requests[2] as ModelRequest;
  const tokens = createTokenEstimator().estimateRequest(third);
  await h.dispose();
  return Math.round(tokens / 0.65);
}

/** Which of the six reads the third request carried cleared, by part number. */
function clearedParts(h: Harness): number[] {
  const results = (h.model.requests[2]?.messages ?? [])
    .flatMap((m) => m.content)
    .filter((b): b is ToolResultBlock => b.type === "toolResult");
  return results.flatMap((r, i) => {
    const text = r.content.map((c) => (c.type === "text" ? c.text : "")).join("");
    return text.startsWith("[Old tool result cleared") ? [i + 1] : [];
  });
}

const statuses = (h: Harness) => h.recorder.ofType("toolFinished").map((f) => f.status);

describe("context pressure with every feature On and in Shadow", { timeout: 90_000 }, () => {
  it("On: planned clears are kept and others added (keeping wins); Shadow and a failing model equal Off", async () => {
    const window = await calibratedWindow();
    const off = await run("off", "eager", window);
    // Off: the plan clears the oldest read alone (the newest five are kept).
    expect(clearedParts(off.h)).toEqual([1]);
    const offStatuses = statuses(off.h);
    const offBadge = off.summary.badge.status;
    await off.h.dispose();

    const on = await run("on", "eager", window);
    // The eager use keeps the planned read 1 and adds reads 2 and 3 (not planned); the
    // newest message's results (reads 4 to 6) are never offered.
    expect(clearedParts(on.h)).toEqual([2, 3]);
    expect(statuses(on.h)).toEqual(offStatuses);
    expect(on.summary.outcome).toBe("completed");
    expect(on.summary.badge.status).toBe(offBadge);
    const applied = on.h.recorder.ofType("decisionTraced").map((e) => e.trace);
    expect(applied).toContainEqual(
      expect.objectContaining({ use: "pressure_keep", mode: "on", applied: true }),
    );
    await on.h.dispose();

    for (const [mode, kind] of [
      ["shadow", "eager"],
      ["on", "failing"],
    ] as const) {
      const other = await run(mode, kind, window);
      expect(clearedParts(other.h), `${mode} ${kind}`).toEqual([1]);
      expect(statuses(other.h)).toEqual(offStatuses);
      expect(other.summary.badge.status).toBe(offBadge);
      await other.h.recorder.waitFor("decisionTraced", {
        trace: { use: "pressure_keep", mode, applied: false },
      });
      await other.h.dispose();
    }
    h = undefined;
  });
});
