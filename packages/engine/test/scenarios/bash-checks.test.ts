import { reply } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { type Harness, harness, loginFix, loginProject, resultsOf } from "../harness.js";

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

const bypass = { overrides: { mode: "bypass" as const } };
/** The login fix (read, edit), then `after` (what the model does next), in a fresh harness. */
async function fixThen(
  after: readonly Parameters<typeof reply.toolCall>[],
  last: string,
  trusted = false,
) {
  h = await harness({
    files: loginProject,
    script: [],
    ...(trusted ? { trusted } : {}),
    ...bypass,
  });
  const p = (x: string) => (h as Harness).repo.path(x);
  h.model.push(
    reply.toolCall("Read", { file_path: p("src/auth/token.js") }),
    reply.toolCall("Edit", { ...loginFix, file_path: p(loginFix.file_path) }),
    ...after.map((args) => reply.toolCall(...args)),
    reply.text(last),
  );
  return { h, summary: await h.session.run("Fix the login test") };
}
const NPM_TEST: Parameters<typeof reply.toolCall> = ["Bash", { command: "npm test" }];

const text = (h: Harness, request: number) =>
  JSON.stringify(resultsOf(h, request).map((r) => r.content));

describe("a check's own command run through Bash", () => {
  it("gets a reminder that it is not recorded, and the badge names it", async () => {
    const { h, summary } = await fixThen([NPM_TEST], "The test passes.");
    const result = text(h, 3);
    expect(result).toContain("is the project's check npm:test");
    expect(result).toContain("not recorded");
    expect(result).toContain('run it with Verify (checks: [\\"npm:test\\"])');
    expect(summary.badge).toEqual({
      status: "unverified",
      reason: "npm test ran through Bash after the change; run it with Verify to record it.",
      checks: ["npm:test"],
    });
    expect(h.recorder.ofType("checkRecorded")).toHaveLength(0);
  });

  it("matches `cd DIR && command` and `npm run test`, and not other commands or folders", async () => {
    h = await harness({
      files: { ...loginProject, "sub/package.json": '{"scripts":{"build":"true"}}' },
      script: [],
      ...bypass,
    });
    const root = h.repo.root;
    h.model.push(
      reply.toolCall("Bash", { command: `cd ${root} && npm   run test` }),
      reply.toolCall("Bash", { command: "cd sub && npm test" }),
      reply.toolCall("Bash", { command: "npm test -- --watch=false" }),
      reply.text("Ran them."),
    );
    await h.session.run("Run the tests");
    expect(text(h, 1)).toContain("is the project's check npm:test");
    expect(text(h, 2)).not.toContain("is the project's check");
    expect(text(h, 3)).not.toContain("is the project's check");
  });

  it("a run through Verify after the change is still what makes it Verified", async () => {
    const { summary } = await fixThen(
      [NPM_TEST, ["Verify", { checks: ["npm:test"] }]],
      "Verified.",
    );
    expect(summary.badge.status).toBe("verified");
  });
});

describe("the default verification mode", () => {
  it("is auto: in a trusted folder the stop boundary runs the test check the model left out", async () => {
    const { h, summary } = await fixThen([NPM_TEST], "The test passes.", true);
    expect(summary.badge.status).toBe("verified");
    expect(h.recorder.ofType("checkRecorded").map((e) => e.record.checkId)).toEqual(["npm:test"]);
  });

  it("runs nothing in an untrusted folder, which keeps report's badge", async () => {
    const { h, summary } = await fixThen([], "Fixed.");
    expect(summary.badge.status).toBe("unverified");
    expect(h.recorder.ofType("checkRecorded")).toHaveLength(0);
    // The default says nothing about trust; a mode someone chose would get a notice.
    expect(h.recorder.ofType("notice").map((n) => n.code)).not.toContain("verification.untrusted");
  });
});
