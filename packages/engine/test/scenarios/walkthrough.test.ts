import { afterEach, describe, expect, it } from "vitest";
import { type Harness, harness, loginProject, walkthroughScript } from "../harness.js";

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

describe("the fix-the-failing-test walkthrough", () => {
  it("asks, records the checks and ends Verified", async () => {
    const asked: string[] = [];
    h = await harness({
      files: loginProject,
      script: [],
      approve: ({ toolName, suggestedRules }) => {
        asked.push(toolName);
        if (toolName === "Verify")
          return { type: "allowSession", rule: suggestedRules[0] ?? "Bash(npm test:*)" };
        return { type: "allowOnce" };
      },
    });
    h.model.push(...walkthroughScript((p) => (h as Harness).repo.path(p)));
    const summary = await h.session.run("The login test fails. Please fix it.");
    expect(summary.outcome).toBe("completed");
    expect(summary.badge.status).toBe("verified");
    expect(asked).toEqual(["Verify", "Edit"]);
    expect(await h.repo.read("src/auth/token.js")).toContain("now >= token.expiresAt");
    h.recorder.expectSubsequence([
      "turnStarted",
      "assistantStarted",
      { type: "approvalRequested", toolName: "Verify", suggestedRules: ["Bash(npm test:*)"] },
      { type: "approvalResolved", decision: { type: "allowSession" } },
      "checkpointCreated",
      { type: "toolStarted", toolName: "Verify" },
      { type: "checkRecorded", record: { checkId: "npm:test", passed: false } },
      { type: "toolFinished", toolName: "Verify" },
      { type: "toolStarted", toolName: "Grep" },
      { type: "toolFinished", toolName: "Read" },
      { type: "approvalRequested", toolName: "Edit" },
      { type: "toolFinished", toolName: "Edit", writtenPaths: [h.repo.path("src/auth/token.js")] },
      { type: "toolStarted", toolName: "Verify" },
      { type: "checkRecorded", record: { checkId: "npm:test", passed: true } },
      { type: "verificationChanged", badge: { status: "verified" } },
      { type: "turnFinished", outcome: "completed", badge: { status: "verified" } },
    ]);
    expect(h.recorder.ofType("approvalRequested")).toHaveLength(2);
  });
});
