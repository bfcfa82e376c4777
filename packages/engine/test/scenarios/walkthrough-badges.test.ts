import { afterEach, describe, expect, it } from "vitest";
import { createEngine } from "@z-engine/engine";
import { createTestEngine, reply } from "@z-engine/testkit";
import { type Harness, harness, loginFix, loginProject } from "../harness.js";

let h: Harness | undefined;
let t: { dispose(): Promise<void> } | undefined;
afterEach(async () => {
  await h?.dispose();
  await t?.dispose();
  h = undefined;
  t = undefined;
});

const bypass = { overrides: { mode: "bypass" as const } };

describe("the badge is read from the records", () => {
  it("is Unverified when a file changes after the passing check", async () => {
    const e = await createTestEngine({
      createEngine,
      files: loginProject,
      script: [],
      session: { mode: "bypass" },
    });
    t = e;
    const p = (x: string) => e.repo.path(x);
    e.model.push(
      reply.toolCall("Read", { file_path: p("src/auth/token.js") }),
      reply.toolCall("Edit", { ...loginFix, file_path: p(loginFix.file_path) }),
      reply.toolCall("Verify", {}),
      reply.toolCall("Write", { file_path: p("NOTES.md"), content: "fixed the expiry check\n" }),
      reply.text("Done."),
    );
    const summary = await e.session.run("Fix the login test");
    expect(summary.outcome).toBe("completed");
    expect(summary.badge.status).toBe("unverified");
    expect(summary.badge.reason).toMatch(/stale|after/i);
  });

  it("is Failed when the latest check fails", async () => {
    h = await harness({ files: loginProject, script: [], ...bypass });
    const p = (x: string) => (h as Harness).repo.path(x);
    h.model.push(
      reply.toolCall("Write", { file_path: p("README.md"), content: "# login demo\n" }),
      reply.toolCall("Verify", { checks: ["npm:test"] }),
      reply.text("The test still fails."),
    );
    const summary = await h.session.run("Add a readme");
    expect(summary.badge.status).toBe("failed");
    expect(summary.badge.checks).toEqual(["npm:test"]);
  });

  it("is Unverified when the test ran only through Bash, and a Bash change counts as a change", async () => {
    h = await harness({ files: loginProject, script: [], ...bypass });
    h.model.push(
      reply.toolCall("Bash", {
        command: "sed -i 's/now > token/now >= token/' src/auth/token.js && npm test",
      }),
      reply.text("Fixed and tested."),
    );
    const summary = await h.session.run("Fix it with sed");
    expect(await h.repo.read("src/auth/token.js")).toContain("now >= token.expiresAt");
    expect(summary.badge.status).toBe("unverified");
    h.recorder.expectSubsequence([
      { type: "verificationChanged", badge: { status: "unverified" } },
      "turnFinished",
    ]);
    expect(h.recorder.ofType("checkRecorded")).toHaveLength(0);
  });

  it("is not applicable when no file changed", async () => {
    h = await harness({ files: loginProject, script: [reply.text("Nothing to do.")] });
    const summary = await h.session.run("hello");
    expect(summary.badge.status).toBe("notApplicable");
    expect(h.recorder.ofType("verificationChanged")).toHaveLength(0);
  });
});
