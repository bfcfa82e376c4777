import { readFile } from "node:fs/promises";
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

  it("report runs nothing and reports Unverified", async () => {
    h = await session('[verification]\nmode = "report"\n', true);
    h.model.push(...readAndEdit(h, loginFix), reply.text("Done."));
    const summary = await h.session.run("Fix the login test");
    expect(summary.badge).toMatchObject({ status: "unverified" });
    expect(h.recorder.ofType("checkRecorded")).toHaveLength(0);
  });
});

describe("checks at the stop boundary pass the same gate as a Verify call", () => {
  it("a PreToolUse hook that denies Verify also stops the automatic check", async () => {
    h = await harness({
      files: loginProject,
      script: [],
      trusted: true,
      userSettings: [
        '[verification]\nmode = "auto"\n',
        "[[hooks.PreToolUse]]",
        'matcher = "Verify"',
        "command = \"echo 'no checks here' >&2; exit 2\"",
        "",
      ].join("\n"),
      overrides: { mode: "bypass" },
    });
    h.model.push(...readAndEdit(h, loginFix), reply.text("Done."));
    const summary = await h.session.run("Fix the login test");
    expect(h.recorder.ofType("checkRecorded")).toHaveLength(0);
    expect(summary.badge.status).toBe("unverified");
    const notices = h.recorder.ofType("notice").map((n) => n.message);
    expect(notices.some((m) => m.includes("no checks here"))).toBe(true);
  }, 30_000);

  it("an allowProject answer to the automatic check adds its rule and saves it", async () => {
    h = await harness({
      files: loginProject,
      script: [],
      trusted: true,
      userSettings: '[verification]\nmode = "auto"\n[permissions]\nallow = ["Read", "Edit"]\n',
      overrides: { mode: "ask" },
      approve: (request) =>
        request.toolName === "Verify"
          ? { type: "allowProject", rule: request.suggestedRules[0] ?? "Verify" }
          : undefined,
    });
    h.model.push(...readAndEdit(h, loginFix), reply.text("Done."));
    const summary = await h.session.run("Fix the login test");
    const asked = h.recorder.ofType("approvalRequested").filter((a) => a.toolName === "Verify");
    expect(asked).toHaveLength(1);
    expect(h.recorder.ofType("checkRecorded").map((e) => e.record.passed)).toEqual([true]);
    expect(summary.badge.status).toBe("verified");
    const rule = asked[0]?.suggestedRules[0] ?? "Verify";
    const saved = await readFile(h.repo.path(".z-engine/settings.local.toml"), "utf8");
    expect(saved).toContain(JSON.stringify(rule));
  }, 30_000);
});
