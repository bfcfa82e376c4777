import { reply } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { decisionModel } from "../decision-model.js";
import { type Harness, harness, userTexts } from "../harness.js";

// custom_rules through a session: the project's `[[decisions.rules]]` apply once the folder is
// trusted (also in the same session), and an untrusted folder's rules are never shown to the
// decision model.

const PROJECT_RULES = [
  "[[decisions.rules]]",
  'name = "git-state"',
  'when = "the call reads the state of the git repository"',
  'at = "tool_gate"',
  "[[decisions.rules]]",
  'name = "release"',
  'when = "the user asks for a release"',
  'at = "turn_start"',
  'remind = "follow RELEASING.md step by step"',
].join("\n");

const USER_SETTINGS = [
  "[permissions]",
  'allow = ["Bash(git status)"]',
  "[verification]",
  'mode = "report"',
  "[decisions]",
  "timeout_ms = 2000",
  "[experimental]",
  'decisions_custom_rules = "on"',
].join("\n");

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

async function run(trusted: boolean) {
  const fast = decisionModel("eager");
  h = await harness({
    files: { "README.md": "# x\n", ".z-engine/settings.toml": PROJECT_RULES },
    script: [reply.toolCall("Bash", { command: "git status" }), reply.text("Done.")],
    userSettings: USER_SETTINGS,
    fastClient: fast,
    approve: () => ({ type: "allowOnce" }),
    trusted,
  });
  const summary = await h.session.run("cut the 2.0 release");
  const approvals = h.recorder.envelopes
    .map((e) => e.event)
    .flatMap((e) => (e.type === "approvalRequested" ? [e.reason] : []));
  const asked = fast.requests.filter((r) =>
    r.system.some((s) => s.text.includes("numbered rules")),
  );
  return { summary, approvals, asked, opening: userTexts(h).join("\n") };
}

describe("custom_rules in a session", { timeout: 60_000 }, () => {
  it("a trusted project's rules ask at the gate and remind at turn start, naming the rule", async () => {
    const { summary, approvals, asked, opening } = await run(true);
    expect(summary.outcome).toBe("completed");
    expect(approvals).toHaveLength(1);
    expect(approvals[0]).toContain('"git-state"');
    expect(opening).toContain('Your rule "release" applies: follow RELEASING.md step by step');
    expect(asked).toHaveLength(2);
  });

  it("an untrusted project's rules are not used until the folder is trusted", async () => {
    const { summary, approvals, asked, opening } = await run(false);
    expect(summary.outcome).toBe("completed");
    expect(approvals).toEqual([]);
    expect(asked).toEqual([]);
    expect(opening).not.toContain("RELEASING.md");
    // Trusting the folder applies its rules at once (the same session's next call).
    const x = h as Harness;
    x.session.send({ type: "trustWorkspace", trusted: true });
    await x.session.idle();
    x.model.push(reply.toolCall("Bash", { command: "git status" }), reply.text("Done."));
    await x.session.run("and once more");
    const reasons = x.recorder.ofType("approvalRequested").map((e) => e.reason);
    expect(reasons).toHaveLength(1);
    expect(reasons[0]).toContain('"git-state"');
  });
});
