import type { Badge, CheckRecord } from "@z-engine/protocol";
import { checkId, newCheckRunId } from "@z-engine/protocol";
import { describe, expect, it } from "vitest";
import { type StopVerdictInput, stopVerdict } from "./modes.js";

const TEST = checkId("npm", "test");
const verified: Badge = {
  status: "verified",
  reason: "Passed after the last change: npm:test.",
  checks: [TEST],
};
const failed: Badge = {
  status: "failed",
  reason: "Failed after the last change: npm:test (exit 1).",
  checks: [TEST],
};
const unverified: Badge = {
  status: "unverified",
  reason:
    "No passing test, build or typecheck after the last change: stale, files changed after they ran: npm:test.",
  checks: [TEST],
};

const failingRecord: CheckRecord = {
  runId: newCheckRunId(),
  checkId: TEST,
  kind: "test",
  command: "npm test",
  cwd: ".",
  exitCode: 1,
  passed: false,
  counts: { passed: 1, failed: 1, skipped: 0 },
  startedAt: 1,
  durationMs: 1,
  outputTail: `${Array.from({ length: 50 }, (_, i) => `line ${i}`).join("\n")}\nAssertionError: expected 4 to be 5\n`,
  output: null,
  fingerprintBefore: "F",
  fingerprintAfter: "F",
};

const input = (extra: Partial<StopVerdictInput>): StopVerdictInput => ({
  mode: "auto",
  trusted: true,
  filesChanged: true,
  badge: unverified,
  autoChecks: [TEST],
  autoChecksRan: false,
  continuationsUsed: 0,
  ...extra,
});

describe("stopVerdict", () => {
  it("off and report only finish", () => {
    for (const badge of [verified, failed, unverified]) {
      expect(stopVerdict(input({ mode: "off", badge }))).toEqual({ action: "finish" });
      expect(stopVerdict(input({ mode: "report", badge }))).toEqual({ action: "finish" });
    }
  });

  it("auto runs its checks when evidence is missing, then finishes if still unverified", () => {
    expect(stopVerdict(input({}))).toEqual({ action: "runChecks", checkIds: [TEST] });
    expect(stopVerdict(input({ autoChecksRan: true }))).toEqual({ action: "finish" });
    expect(stopVerdict(input({ autoChecks: [] }))).toEqual({ action: "finish" });
    expect(stopVerdict(input({ badge: verified }))).toEqual({ action: "finish" });
  });

  it("auto sends failures back with the failing output's end", () => {
    const verdict = stopVerdict(input({ badge: failed, records: [failingRecord] }));
    expect(verdict.action).toBe("continue");
    const reminder = verdict.action === "continue" ? verdict.reminder : "";
    expect(reminder).toContain("Failed after the last change: npm:test (exit 1).");
    expect(reminder).toContain("$ npm test  (in .)");
    expect(reminder).toContain("AssertionError: expected 4 to be 5");
    expect(reminder).not.toContain("line 10\n");
    expect(reminder).toMatch(/^<verification>[\s\S]*<\/verification>$/);
  });

  it("strict also keeps going until Verified", () => {
    expect(stopVerdict(input({ mode: "strict" }))).toEqual({
      action: "runChecks",
      checkIds: [TEST],
    });
    const after = stopVerdict(input({ mode: "strict", autoChecksRan: true }));
    expect(after.action).toBe("continue");
    expect(after.action === "continue" && after.reminder).toContain(
      "Run the relevant checks with Verify (npm:test)",
    );
    expect(stopVerdict(input({ mode: "strict", badge: verified }))).toEqual({ action: "finish" });
  });

  it("caps send-backs at max_continuations (default 3) but still gathers evidence", () => {
    expect(stopVerdict(input({ badge: failed, continuationsUsed: 3 }))).toEqual({
      action: "finish",
    });
    expect(stopVerdict(input({ badge: failed, continuationsUsed: 2 })).action).toBe("continue");
    expect(
      stopVerdict(input({ badge: failed, continuationsUsed: 1, maxContinuations: 1 })),
    ).toEqual({ action: "finish" });
    expect(
      stopVerdict(input({ mode: "strict", autoChecksRan: true, continuationsUsed: 3 })),
    ).toEqual({ action: "finish" });
    expect(stopVerdict(input({ mode: "strict", continuationsUsed: 3 }))).toEqual({
      action: "runChecks",
      checkIds: [TEST],
    });
  });

  it("runs nothing in an untrusted project or when no files changed", () => {
    for (const mode of ["auto", "strict"] as const) {
      expect(stopVerdict(input({ mode, trusted: false }))).toEqual({ action: "finish" });
      expect(stopVerdict(input({ mode, trusted: false, badge: failed }))).toEqual({
        action: "finish",
      });
      expect(stopVerdict(input({ mode, filesChanged: false }))).toEqual({ action: "finish" });
    }
  });

  it("keeps a reminder bounded when outputs are huge", () => {
    const huge = { ...failingRecord, outputTail: "x".repeat(100_000) };
    const verdict = stopVerdict(input({ badge: failed, records: [huge] }));
    expect(verdict.action === "continue" && verdict.reminder.length).toBeLessThan(6_200);
  });
});
