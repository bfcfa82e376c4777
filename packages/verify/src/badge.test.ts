import type { CheckKind, CheckRecord } from "@z-engine/protocol";
import { checkId, newCheckRunId } from "@z-engine/protocol";
import { describe, expect, it } from "vitest";
import { assessBadge, type BadgeInput } from "./badge.js";

function rec(
  id: string,
  kind: CheckKind,
  passed: boolean,
  startedAt: number,
  fingerprintAfter: string,
  counts: CheckRecord["counts"] = null,
): CheckRecord {
  const [eco = "", name = ""] = id.split(":");
  return {
    runId: newCheckRunId(),
    checkId: checkId(eco, name),
    kind,
    command: `npm run ${name}`,
    cwd: ".",
    exitCode: passed ? 0 : 1,
    passed,
    counts,
    startedAt,
    durationMs: 10,
    outputTail: "",
    output: null,
    fingerprintBefore: fingerprintAfter,
    fingerprintAfter,
  };
}

const base = (records: CheckRecord[], extra: Partial<BadgeInput> = {}): BadgeInput => ({
  filesChanged: true,
  mode: "report",
  records,
  currentFingerprint: "F2",
  lastChangeAt: 100,
  ...extra,
});

describe("the badge table", () => {
  it("Verified: a passing test, build or typecheck after the last change, matching the files", () => {
    for (const kind of ["test", "build", "typecheck"] as const) {
      const badge = assessBadge(base([rec(`npm:${kind}`, kind, true, 200, "F2", null)]));
      expect(badge).toEqual({
        status: "verified",
        reason: `Passed after the last change: npm:${kind}.`,
        checks: [`npm:${kind}`],
      });
    }
    const counted = assessBadge(
      base([rec("npm:test", "test", true, 200, "F2", { passed: 12, failed: 0, skipped: 1 })]),
    );
    expect(counted.reason).toBe("Passed after the last change: npm:test (12 tests passed).");
  });

  it("Failed: the latest run of a check failed", () => {
    const badge = assessBadge(
      base([rec("npm:test", "test", false, 200, "F2", { passed: 3, failed: 1, skipped: 0 })]),
    );
    expect(badge).toEqual({
      status: "failed",
      reason: "Failed after the last change: npm:test (exit 1; 1 of 4 tests failed).",
      checks: ["npm:test"],
    });
  });

  it("Unverified: no check since the change", () => {
    expect(assessBadge(base([]))).toEqual({
      status: "unverified",
      reason:
        "No passing test, build or typecheck after the last change: no check ran since the change.",
      checks: [],
    });
    const missing = assessBadge(base([], { expected: [checkId("npm", "test")] }));
    expect(missing.reason).toContain("missing, never run: npm:test");
    expect(missing.checks).toEqual(["npm:test"]);
  });

  it("Unverified: only stale checks", () => {
    const badge = assessBadge(base([rec("npm:test", "test", true, 50, "F1")]));
    expect(badge.status).toBe("unverified");
    expect(badge.reason).toBe(
      "No passing test, build or typecheck after the last change: stale, files changed after they ran: npm:test.",
    );
    expect(badge.checks).toEqual(["npm:test"]);
  });

  it("Unverified: only lint and format checks", () => {
    const badge = assessBadge(
      base([rec("npm:lint", "lint", true, 200, "F2"), rec("npm:fmt", "format", true, 201, "F2")]),
    );
    expect(badge.status).toBe("unverified");
    expect(badge.reason).toContain(
      "only lint and format checks ran since the change (npm:lint, npm:fmt)",
    );
  });

  it("Not applicable: no files changed, or verification off", () => {
    const records = [rec("npm:test", "test", false, 200, "F2")];
    expect(assessBadge(base(records, { filesChanged: false })).status).toBe("notApplicable");
    expect(assessBadge(base(records, { mode: "off" }))).toEqual({
      status: "notApplicable",
      reason: "Verification is off.",
      checks: [],
    });
  });
});

describe("the rulings of design.md §3", () => {
  it("a file changed after a passing check makes it stale", () => {
    // The check passed on F1; an edit at t=300 moved the files to F2.
    const badge = assessBadge(
      base([rec("npm:test", "test", true, 200, "F1")], { lastChangeAt: 300 }),
    );
    expect(badge.status).toBe("unverified");
    expect(badge.checks).toEqual(["npm:test"]);
  });

  it("a fingerprint that no longer matches is stale even without a change time (a Bash edit)", () => {
    const input = base([rec("npm:test", "test", true, 200, "F1")]);
    const { lastChangeAt: _, ...withoutTime } = input;
    expect(assessBadge(withoutTime).status).toBe("unverified");
    expect(assessBadge({ ...withoutTime, currentFingerprint: "F1" }).status).toBe("verified");
  });

  it("a run started before the last change is stale even when the files match again", () => {
    const badge = assessBadge(base([rec("npm:test", "test", true, 90, "F2")]));
    expect(badge.status).toBe("unverified");
  });

  it("a failing lint beside a passing test is Failed", () => {
    const badge = assessBadge(
      base([rec("npm:test", "test", true, 200, "F2"), rec("npm:lint", "lint", false, 210, "F2")]),
    );
    expect(badge).toEqual({
      status: "failed",
      reason: "Failed after the last change: npm:lint (exit 1).",
      checks: ["npm:lint"],
    });
  });

  it("a failure from before the last change is stale, not Failed", () => {
    const records = [
      rec("npm:lint", "lint", false, 50, "F1"),
      rec("npm:test", "test", true, 200, "F2"),
    ];
    expect(assessBadge(base(records)).status).toBe("verified");
    const onlyOld = assessBadge(base([rec("npm:test", "test", false, 50, "F1")]));
    expect(onlyOld.status).toBe("unverified");
    expect(onlyOld.reason).toContain("stale, files changed after they ran: npm:test");
  });

  it("only the latest fresh run of a check counts", () => {
    const fixed = [
      rec("npm:test", "test", false, 200, "F2"),
      rec("npm:test", "test", true, 250, "F2"),
    ];
    expect(assessBadge(base(fixed)).status).toBe("verified");
    const broke = [
      rec("npm:test", "test", true, 200, "F2"),
      rec("npm:test", "test", false, 250, "F2"),
    ];
    expect(assessBadge(base(broke)).status).toBe("failed");
  });

  it("a killed run is a failure", () => {
    const killed = { ...rec("npm:test", "test", false, 200, "F2"), exitCode: null };
    expect(assessBadge(base([killed])).reason).toBe(
      "Failed after the last change: npm:test (killed before it exited).",
    );
  });
});

describe("checks run through plain Bash", () => {
  const npmTest = checkId("npm", "test");

  it("name the command in the Unverified reason when they ran after the last change", () => {
    const badge = assessBadge(
      base([], { viaBash: [{ checkId: npmTest, command: "npm test", at: 150 }] }),
    );
    expect(badge).toEqual({
      status: "unverified",
      reason: "npm test ran through Bash after the change; run it with Verify to record it.",
      checks: ["npm:test"],
    });
  });

  it("keep the other reasons beside it, and count nothing as evidence", () => {
    const badge = assessBadge(
      base([rec("npm:build", "build", true, 50, "F1")], {
        viaBash: [
          { checkId: npmTest, command: "npm test", at: 150 },
          { checkId: checkId("npm", "lint"), command: "npm run lint", at: 160 },
        ],
      }),
    );
    expect(badge.status).toBe("unverified");
    expect(badge.reason).toBe(
      "npm test, npm run lint ran through Bash after the change; run them with Verify to record them; stale, files changed after they ran: npm:build.",
    );
  });

  it("are left out when they ran before the last change, and never turn a Verified badge", () => {
    const before = assessBadge(
      base([], { viaBash: [{ checkId: npmTest, command: "npm test", at: 50 }] }),
    );
    expect(before.reason).toBe(
      "No passing test, build or typecheck after the last change: no check ran since the change.",
    );
    const verified = assessBadge(
      base([rec("npm:test", "test", true, 200, "F2")], {
        viaBash: [{ checkId: npmTest, command: "npm test", at: 150 }],
      }),
    );
    expect(verified.status).toBe("verified");
  });
});
