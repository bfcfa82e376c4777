import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { childEnvironment } from "@z-engine/host";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { HookRunner } from "./runner.js";
import type { HookDefinition, HookSpanEnd, HookSpanStart, HookTable } from "./types.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "zeng-hooks-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const hook = (command: string, matcher = "", timeoutSecs = 10): HookDefinition => ({
  matcher,
  command,
  timeoutSecs,
});
const runner = (table: HookTable) =>
  new HookRunner(table, {
    sessionId: "ses_1",
    transcriptPath: "/data/sessions/ses_1/log.jsonl",
    cwd: dir,
    folder: { path: dir, reason: "trustedProject" },
    env: childEnvironment({ PATH: process.env.PATH ?? "/usr/bin:/bin" }),
  });

describe("HookRunner", () => {
  it("passes Claude Code's JSON input on stdin", async () => {
    const out = join(dir, "input.json");
    const r = await runner({ PreToolUse: [hook(`cat > ${out}`)] }).run(
      "PreToolUse",
      { tool_name: "Bash", tool_input: { command: "ls" } },
      { subject: "Bash" },
    );
    expect(r.ran).toBe(1);
    expect(JSON.parse(await readFile(out, "utf8"))).toEqual({
      session_id: "ses_1",
      transcript_path: "/data/sessions/ses_1/log.jsonl",
      cwd: dir,
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: "ls" },
    });
  });

  it("blocks on exit 2 with stderr as the reason", async () => {
    const r = await runner({ PreToolUse: [hook("echo 'no rm here' >&2; exit 2")] }).run(
      "PreToolUse",
      { tool_name: "Bash" },
      { subject: "Bash" },
    );
    expect(r).toMatchObject({ blocked: true, blockReason: "no rm here", warnings: [] });
  });

  it("reads decisions, rewritten input and context from JSON stdout", async () => {
    const script = join(dir, "rewrite.sh");
    await writeFile(
      script,
      `#!/bin/sh\ncat >/dev/null\necho '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"check this","updatedInput":{"command":"npm test -- --run"},"additionalContext":"ran via hook"}}'\n`,
      { mode: 0o755 },
    );
    const r = await runner({ PreToolUse: [hook(script, "Bash|Write")] }).run(
      "PreToolUse",
      { tool_name: "Bash" },
      { subject: "Bash" },
    );
    expect(r).toMatchObject({
      permissionDecision: "ask",
      permissionReason: "check this",
      updatedInput: { command: "npm test -- --run" },
      additionalContext: ["ran via hook"],
    });
  });

  it("runs only hooks whose matcher matches the tool, with * and empty matching all", async () => {
    const table = {
      PreToolUse: [
        hook('echo \'{"decision":"block","reason":"edit"}\'', "Edit"),
        hook("true", "*"),
        hook("true"),
      ],
    };
    const r = await runner(table).run("PreToolUse", {}, { subject: "Read" });
    expect(r.ran).toBe(2);
    expect(r.blocked).toBe(false);
    const e = await runner(table).run("PreToolUse", {}, { subject: "Edit" });
    expect(e).toMatchObject({ ran: 3, blocked: true, blockReason: "edit" });
  });

  it("turns plain stdout into context for UserPromptSubmit, not for PostToolUse", async () => {
    const prompt = await runner({ UserPromptSubmit: [hook("echo 'Ticket: ZE-42'")] }).run(
      "UserPromptSubmit",
      {
        prompt: "fix it",
      },
    );
    expect(prompt.additionalContext).toEqual(["Ticket: ZE-42"]);
    const post = await runner({ PostToolUse: [hook("echo 'noise'")] }).run(
      "PostToolUse",
      {},
      { subject: "Read" },
    );
    expect(post.additionalContext).toEqual([]);
  });

  it("combines several hooks: deny beats ask beats allow, contexts add up", async () => {
    const say = (decision: string) =>
      hook(
        `echo '{"hookSpecificOutput":{"permissionDecision":"${decision}","permissionDecisionReason":"${decision}!"}}'`,
      );
    const r = await runner({ PreToolUse: [say("allow"), say("deny"), say("ask")] }).run(
      "PreToolUse",
      {},
      { subject: "Bash" },
    );
    expect(r).toMatchObject({ ran: 3, permissionDecision: "deny", permissionReason: "deny!" });
  });

  it("stops on continue false", async () => {
    const r = await runner({ Stop: [hook(`echo '{"continue":false,"stopReason":"budget"}'`)] }).run(
      "Stop",
      {
        stop_hook_active: false,
      },
    );
    expect(r).toMatchObject({ stop: true, stopReason: "budget" });
  });

  it("warns without blocking on a timeout, another exit code, invalid JSON or a bad matcher", async () => {
    const r = await runner({
      PreToolUse: [
        hook("sleep 30", "", 0.2),
        hook("echo boom >&2; exit 3"),
        hook("echo '{not json'"),
        hook("true", "(unclosed"),
      ],
    }).run("PreToolUse", {}, { subject: "Bash" });
    expect(r.blocked).toBe(false);
    expect(r.ran).toBe(3);
    expect(r.warnings).toEqual([
      'hook matcher "(unclosed" is not a valid regex; matched as plain text',
      'hook "sleep 30" timed out after 0.2 s',
      'hook "echo boom >&2; exit 3" exited with 3: boom',
      `hook "echo '{not json'" printed invalid JSON; its output was ignored`,
    ]);
  });

  it("reports a hook that cannot start as a warning", async () => {
    const r = await new HookRunner(
      { SessionStart: [hook("true")] },
      {
        sessionId: "s",
        transcriptPath: "t",
        cwd: join(dir, "missing"),
        folder: { path: join(dir, "missing"), reason: "trustedProject" },
        env: childEnvironment({}),
      },
    ).run("SessionStart", {});
    expect(r.warnings[0]).toMatch(/could not start/);
  });

  it("reports each hook run to the session's spans: kind, parent and outcome", async () => {
    const runs: { start: HookSpanStart; end?: HookSpanEnd }[] = [];
    const r = await new HookRunner(
      {
        PostToolUse: [
          hook("sleep 30", "Bash", 0.2),
          hook("echo boom >&2; exit 3", "Ba.*"),
          hook(`echo '{"continue": false}'`),
          { matcher: "*", command: "in-process", timeoutSecs: 5, callback: async () => ({}) },
          hook("true", "Read"),
        ],
      },
      {
        sessionId: "ses_1",
        transcriptPath: "t",
        cwd: dir,
        folder: { path: dir, reason: "trustedProject" },
        env: childEnvironment({ PATH: process.env.PATH ?? "/usr/bin:/bin" }),
        spans: {
          start: (start) => {
            const run: (typeof runs)[number] = { start };
            runs.push(run);
            return {
              end: (end) => {
                run.end = end;
              },
            };
          },
        },
      },
    ).run(
      "PostToolUse",
      { tool_use_id: "call_1" },
      { subject: "Bash", parent: { turnId: "turn_1", toolCallId: "call_1" } },
    );
    expect(r.ran).toBe(4);
    expect(
      runs.map(({ start, end }) => [
        start.command,
        start.kind,
        start.matcher,
        end?.outcome,
        end?.exitCode,
      ]),
    ).toEqual([
      ["sleep 30", "command", "Bash", "timeout", null],
      ["echo boom >&2; exit 3", "command", "Ba.*", "failed", 3],
      [`echo '{"continue": false}'`, "command", "", "stopped", 0],
      ["in-process", "callback", "*", "ok", 0],
    ]);
    for (const { start } of runs) {
      expect(start).toMatchObject({ sessionId: "ses_1", event: "PostToolUse" });
      expect(start.parent).toEqual({ turnId: "turn_1", toolCallId: "call_1" });
    }
  });
});
