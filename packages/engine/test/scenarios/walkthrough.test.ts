import { afterEach, describe, expect, it } from "vitest";
import { reply } from "@z-engine/testkit";
import { type Harness, harness, loginFix, loginProject } from "../harness.js";

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

/** The "fix the failing test" walkthrough of how-it-works.md, with its five rounds. */
const walkthroughScript = (path: (p: string) => string) => [
  reply.toolCall("Verify", { checks: ["npm:test"] }),
  reply.toolCalls([
    { name: "Grep", input: { pattern: "isExpired", path: path(".") } },
    { name: "Read", input: { file_path: path("src/auth/token.js") } },
    { name: "Read", input: { file_path: path("test/token.test.js") } },
  ]),
  reply.toolCall("Edit", { ...loginFix, file_path: path(loginFix.file_path) }),
  reply.toolCall("Verify", { checks: ["npm:test"] }),
  reply.text(
    "Fixed `isExpired`: a token now counts as expired at its expiry time. The login test passes.",
  ),
];

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
