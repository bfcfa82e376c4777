import { childEnvironment } from "@z-engine/host";
import { describe, expect, it } from "vitest";
import { HookRunner } from "./runner.js";
import type { HookCallback, HookDefinition } from "./types.js";

const runner = (hooks: HookDefinition[]) =>
  new HookRunner(
    { PreToolUse: hooks },
    {
      sessionId: "ses_1",
      transcriptPath: "/data/log.jsonl",
      cwd: "/project",
      folder: { path: "/project", reason: "trustedProject" },
      env: childEnvironment({}),
    },
  );
const callback = (cb: HookCallback, timeoutSecs = 10): HookDefinition => ({
  matcher: "Bash",
  command: "the host's PreToolUse callback",
  timeoutSecs,
  callback: cb,
});

describe("hook callbacks", () => {
  it("get the input a command reads and answer as its JSON stdout does", async () => {
    const seen: unknown[] = [];
    const r = await runner([
      callback(async (input) => {
        seen.push(input);
        return {
          hookSpecificOutput: {
            hookEventName: "PreToolUse",
            permissionDecision: "deny",
            permissionDecisionReason: "not on Fridays",
            updatedInput: { command: "true" },
          },
        };
      }),
    ]).run("PreToolUse", { tool_name: "Bash", tool_input: { command: "ls" } }, { subject: "Bash" });
    expect(seen).toEqual([
      {
        session_id: "ses_1",
        transcript_path: "/data/log.jsonl",
        cwd: "/project",
        hook_event_name: "PreToolUse",
        tool_name: "Bash",
        tool_input: { command: "ls" },
      },
    ]);
    expect(r).toMatchObject({
      ran: 1,
      permissionDecision: "deny",
      permissionReason: "not on Fridays",
      updatedInput: { command: "true" },
    });
  });

  it("skip a callback whose matcher does not match; a throw or a timeout is a warning", async () => {
    let called = false;
    const other = await runner([
      callback(async () => {
        called = true;
        return {};
      }),
    ]).run("PreToolUse", { tool_name: "Read" }, { subject: "Read" });
    expect(called).toBe(false);
    expect(other.ran).toBe(0);
    const thrown = await runner([
      callback(async () => {
        throw new Error("boom");
      }),
      callback(
        (_input, signal) =>
          new Promise((resolve) => signal.addEventListener("abort", () => resolve({}))),
        0.05,
      ),
    ]).run("PreToolUse", { tool_name: "Bash" }, { subject: "Bash" });
    expect(thrown.blocked).toBe(false);
    expect(thrown.warnings).toEqual([
      expect.stringContaining("boom"),
      expect.stringContaining("timed out"),
    ]);
  });
});
