import { afterEach, describe, expect, it } from "vitest";
import { reply } from "@z-engine/testkit";
import { type Harness, harness, loginFix, loginProject } from "../harness.js";

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

const wrongFix = { ...loginFix, new_string: "now > token.expiresAt + 0" };

/** A bypass-mode session on the login project with these user settings. */
async function session(settings: string, trusted: boolean): Promise<Harness> {
  return harness({
    files: loginProject,
    script: [],
    trusted,
    userSettings: settings,
    overrides: { mode: "bypass" },
  });
}

/** The first two rounds: read the code, then edit it (wrongly, or with the real fix). */
function readAndEdit(h: Harness, edit: typeof loginFix) {
  const p = (x: string) => h.repo.path(x);
  return [
    reply.toolCall("Read", { file_path: p("src/auth/token.js") }),
    reply.toolCall("Edit", { ...edit, file_path: p(edit.file_path) }),
  ];
}

describe("verification modes at the stop boundary", () => {
  it("auto runs the selected test check, sends the failure back, and ends Verified once fixed", async () => {
    h = await session('[verification]\nmode = "auto"\n', true);
    const p = (x: string) => (h as Harness).repo.path(x);
    h.model.push(
      ...readAndEdit(h, wrongFix),
      reply.text("Done, I think."),
      reply.toolCall("Edit", {
        file_path: p(loginFix.file_path),
        old_string: "now > token.expiresAt + 0",
        new_string: "now >= token.expiresAt",
      }),
      reply.text("Fixed for real."),
    );
    const summary = await h.session.run("Fix the login test");
    expect(summary.outcome).toBe("completed");
    expect(summary.badge.status).toBe("verified");
    const records = h.recorder.ofType("checkRecorded").map((e) => e.record.passed);
    expect(records).toEqual([false, true]);
    // The failure went back to the model as the message after its first "done".
    const sentBack = JSON.stringify(h.model.requests[3]?.messages.at(-1));
    expect(sentBack).toContain("npm:test");
    expect(h.model.requests).toHaveLength(5);
  });

  it("strict keeps sending the failure back until max_continuations, then ends Failed", async () => {
    h = await session('[verification]\nmode = "strict"\nmax_continuations = 2\n', true);
    h.model.push(
      ...readAndEdit(h, wrongFix),
      reply.text("Done."),
      reply.text("Still done."),
      reply.text("Really done."),
    );
    const summary = await h.session.run("Fix the login test");
    expect(summary.outcome).toBe("completed");
    expect(summary.badge.status).toBe("failed");
    expect(h.model.requests).toHaveLength(5);
    expect(h.model.remaining).toBe(0);
  });

  it("auto runs nothing in an untrusted project", async () => {
    h = await session('[verification]\nmode = "auto"\n', false);
    h.model.push(...readAndEdit(h, loginFix), reply.text("Done."));
    const summary = await h.session.run("Fix the login test");
    expect(summary.badge.status).toBe("unverified");
    expect(h.recorder.ofType("checkRecorded")).toHaveLength(0);
  });

  it("report (the default) runs nothing and reports Unverified", async () => {
    h = await session("", false);
    h.model.push(...readAndEdit(h, loginFix), reply.text("Done."));
    const summary = await h.session.run("Fix the login test");
    expect(summary.badge).toMatchObject({ status: "unverified" });
    expect(h.recorder.ofType("checkRecorded")).toHaveLength(0);
  });
});
