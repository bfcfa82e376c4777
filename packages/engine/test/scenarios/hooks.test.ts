import { existsSync } from "node:fs";
import { MAX_STOP_HOOK_CONTINUATIONS } from "@z-engine/engine";
import { reply } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { type Harness, type HarnessOptions, harness, loginProject } from "../harness.js";
import { type HookScripts, type HookSpec, hookScripts } from "../hook-scripts.js";

let h: Harness | undefined;
let hooks: HookScripts | undefined;
afterEach(async () => {
  await h?.dispose();
  await hooks?.dispose();
  h = undefined;
  hooks = undefined;
});

const files = { ...loginProject, "README.md": "# login demo\n" };

async function withHooks(
  specs: readonly HookSpec[],
  options: Partial<HarnessOptions> = {},
  extraSettings = "",
): Promise<Harness> {
  hooks = await hookScripts(specs);
  h = await harness({
    files,
    script: [],
    ...options,
    userSettings: `${extraSettings}\n${hooks.toml}`,
  });
  return h;
}

const lines = (text: string) => text.split("\n").filter((l) => l.trim() !== "");
const resultText = (x: Harness, request: number) =>
  JSON.stringify(x.model.requests[request]?.messages.at(-1));

describe("PreToolUse hooks", () => {
  it("get Claude Code's input on stdin, and exit 2 blocks the call with stderr as the reason", async () => {
    const x = await withHooks(
      [
        {
          event: "PreToolUse",
          matcher: "Bash",
          body: 'cat > "$HOOK_DIR/input.json"\necho "touching files is not allowed here" >&2\nexit 2',
        },
      ],
      {
        overrides: { mode: "bypass" },
      },
    );
    x.model.push(
      reply.toolCalls([
        { name: "Bash", input: { command: "touch blocked.txt" } },
        { name: "Read", input: { file_path: x.repo.path("README.md") } },
      ]),
      reply.text("ok"),
    );
    await x.session.run("try it");
    expect(existsSync(x.repo.path("blocked.txt"))).toBe(false);
    const finished = x.recorder.ofType("toolFinished");
    expect(finished.map((f) => [f.toolName, f.status])).toEqual([
      ["Bash", "denied"],
      ["Read", "ok"],
    ]);
    expect(resultText(x, 1)).toContain(
      "Blocked by a PreToolUse hook: touching files is not allowed here",
    );
    const input = JSON.parse(await (hooks as HookScripts).read("input.json"));
    expect(input).toEqual({
      session_id: x.session.id,
      transcript_path: x.session.logPath,
      cwd: x.repo.root,
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: "touch blocked.txt" },
      // Claude Code's field: the call's id (the Agent SDK hands it to callbacks too).
      tool_use_id: expect.stringMatching(/.+/),
    });
  });

  it("rewrite the input with updatedInput, and force a deny with their reason", async () => {
    const out = JSON.stringify({
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        updatedInput: { command: "echo rewritten > out.txt" },
      },
    });
    const deny = JSON.stringify({
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason: "the readme is off limits",
      },
    });
    const x = await withHooks(
      [
        { event: "PreToolUse", matcher: "Bash", body: `cat > /dev/null\necho '${out}'` },
        { event: "PreToolUse", matcher: "Read|Grep", body: `cat > /dev/null\necho '${deny}'` },
      ],
      { overrides: { mode: "bypass" } },
    );
    x.model.push(
      reply.toolCalls([
        { name: "Bash", input: { command: "echo original > out.txt" } },
        { name: "Read", input: { file_path: x.repo.path("README.md") } },
      ]),
      reply.text("ok"),
    );
    await x.session.run("write it");
    expect(await x.repo.read("out.txt")).toBe("rewritten\n");
    expect(x.recorder.ofType("toolStarted")[0]?.input).toEqual({
      command: "echo rewritten > out.txt",
    });
    expect(x.recorder.ofType("toolFinished").map((f) => f.status)).toEqual(["ok", "denied"]);
    expect(resultText(x, 1)).toContain("the readme is off limits");
  });

  it("force an ask; their allow skips an ask but never a deny rule; a waiting approval runs the Notification hook", async () => {
    const ask = JSON.stringify({
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "ask",
        permissionDecisionReason: "reading needs a second look",
      },
    });
    const allow = JSON.stringify({
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "allow",
        permissionDecisionReason: "the hook trusts Bash",
      },
    });
    const asked: string[] = [];
    const x = await withHooks(
      [
        { event: "PreToolUse", matcher: "Read", body: `cat > /dev/null\necho '${ask}'` },
        { event: "PreToolUse", matcher: "Bash", body: `cat > /dev/null\necho '${allow}'` },
        {
          event: "Notification",
          body: 'cat >> "$HOOK_DIR/notifications.jsonl"; echo >> "$HOOK_DIR/notifications.jsonl"',
        },
      ],
      {
        approve: ({ toolName }) => {
          asked.push(toolName);
          return { type: "allowOnce" };
        },
      },
      '[permissions]\ndeny = ["Bash(rm:*)"]\n',
    );
    x.model.push(
      reply.toolCalls([
        { name: "Read", input: { file_path: x.repo.path("README.md") } },
        { name: "Bash", input: { command: "echo hi > allowed.txt" } },
        { name: "Bash", input: { command: "rm README.md" } },
      ]),
      reply.text("ok"),
    );
    await x.session.run("go");
    expect(asked).toEqual(["Read"]);
    expect(x.recorder.ofType("approvalRequested")[0]?.reason).toBe("reading needs a second look");
    expect(await x.repo.read("allowed.txt")).toBe("hi\n");
    expect(existsSync(x.repo.path("README.md"))).toBe(true);
    expect(x.recorder.ofType("toolFinished").map((f) => f.status)).toEqual(["ok", "ok", "denied"]);
    await x.session.close();
    const notifications = lines(await (hooks as HookScripts).read("notifications.jsonl")).map((l) =>
      JSON.parse(l),
    );
    expect(notifications).toHaveLength(1);
    expect(notifications[0]).toMatchObject({ hook_event_name: "Notification" });
    expect(notifications[0].message).toContain("approval");
  });

  it("that time out or print invalid JSON warn, and the call goes on", async () => {
    const x = await withHooks(
      [
        { event: "PreToolUse", matcher: "*", body: "sleep 20", timeoutSecs: 0.3 },
        { event: "PreToolUse", matcher: "", body: "cat > /dev/null\necho '{\"decision\": '" },
      ],
      { overrides: { mode: "bypass" } },
    );
    x.model.push(reply.toolCall("Bash", { command: "echo ran > ran.txt" }), reply.text("ok"));
    const started = Date.now();
    await x.session.run("go");
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await x.repo.read("ran.txt")).toBe("ran\n");
    const warnings = x.recorder
      .ofType("notice")
      .filter((n) => n.code === "hook.warning")
      .map((n) => n.message);
    expect(warnings.some((w) => w.includes("timed out after 0.3 s"))).toBe(true);
    expect(warnings.some((w) => w.includes("printed invalid JSON"))).toBe(true);
  });
});

describe("context from hooks", () => {
  it("SessionStart and UserPromptSubmit stdout and PostToolUse additionalContext reach the model; SessionEnd runs on close", async () => {
    const post = JSON.stringify({
      hookSpecificOutput: {
        hookEventName: "PostToolUse",
        additionalContext: "This file is owned by the auth team.",
      },
    });
    const x = await withHooks(
      [
        {
          event: "SessionStart",
          body: 'cat > "$HOOK_DIR/start.json"\necho "This project uses pnpm."',
        },
        {
          event: "UserPromptSubmit",
          body: 'cat > "$HOOK_DIR/prompt.json"\necho "The sprint ends on Friday."',
        },
        {
          event: "PostToolUse",
          matcher: "Read",
          body: `cat > "$HOOK_DIR/post.json"\necho '${post}'`,
        },
        { event: "SessionEnd", body: 'cat > "$HOOK_DIR/end.json"' },
      ],
      { overrides: { mode: "bypass" } },
    );
    x.model.push(reply.toolCall("Read", { file_path: x.repo.path("README.md") }), reply.text("ok"));
    await x.session.run("read the readme");
    const first = resultText(x, 0);
    expect(first).toContain("read the readme");
    expect(first).toContain("This project uses pnpm.");
    expect(first).toContain("The sprint ends on Friday.");
    expect(resultText(x, 1)).toContain("This file is owned by the auth team.");
    const scripts = hooks as HookScripts;
    expect(JSON.parse(await scripts.read("start.json"))).toMatchObject({
      hook_event_name: "SessionStart",
      source: "startup",
    });
    expect(JSON.parse(await scripts.read("prompt.json"))).toMatchObject({
      hook_event_name: "UserPromptSubmit",
      prompt: "read the readme",
    });
    expect(JSON.parse(await scripts.read("post.json"))).toMatchObject({
      hook_event_name: "PostToolUse",
      tool_name: "Read",
      tool_response: { is_error: false },
    });
    expect(await scripts.read("end.json")).toBe("");
    await x.session.close();
    expect(JSON.parse(await scripts.read("end.json"))).toMatchObject({
      hook_event_name: "SessionEnd",
    });
  });

  it("a UserPromptSubmit hook that exits 2 drops the prompt before turnStarted", async () => {
    const x = await withHooks([
      {
        event: "UserPromptSubmit",
        body: 'if grep -q password; then echo "prompts must not hold passwords" >&2; exit 2; fi',
      },
    ]);
    const blocked = await x.session.run("my password is hunter2");
    expect(blocked.outcome).toBeNull();
    expect(x.model.requests).toHaveLength(0);
    expect(x.recorder.ofType("turnStarted")).toHaveLength(0);
    expect(x.recorder.ofType("notice").find((n) => n.code === "hook.promptBlocked")?.message).toBe(
      "prompts must not hold passwords",
    );
    x.model.push(reply.text("hello"));
    expect((await x.session.run("hello")).outcome).toBe("completed");
    expect(JSON.stringify(x.model.requests[0]?.messages)).not.toContain("hunter2");
  });
});

describe("Stop hooks", () => {
  it("continue the turn with their reason, at most five times a turn", async () => {
    const x = await withHooks([
      {
        event: "Stop",
        body: 'cat >> "$HOOK_DIR/stop.jsonl"; echo >> "$HOOK_DIR/stop.jsonl"\necho "the tests have not run yet" >&2\nexit 2',
      },
    ]);
    for (let i = 0; i < 10; i++) x.model.push(reply.text(`answer ${i}`));
    const summary = await x.session.run("finish up");
    expect(summary.outcome).toBe("completed");
    expect(MAX_STOP_HOOK_CONTINUATIONS).toBe(5);
    expect(x.model.requests).toHaveLength(MAX_STOP_HOOK_CONTINUATIONS + 1);
    expect(resultText(x, 1)).toContain("the tests have not run yet");
    const inputs = lines(await (hooks as HookScripts).read("stop.jsonl")).map((l) => JSON.parse(l));
    expect(inputs.map((i) => i.stop_hook_active)).toEqual([false, true, true, true, true]);
    expect(inputs[0]).toMatchObject({ hook_event_name: "Stop", session_id: x.session.id });
    // The cap is per turn: the next turn may be continued again.
    const before = x.model.requests.length;
    for (let i = 0; i < 10; i++) x.model.push(reply.text(`again ${i}`));
    await x.session.run("one more");
    expect(x.model.requests.length - before).toBe(MAX_STOP_HOOK_CONTINUATIONS + 1);
  });

  it("that print continue false end the turn with their stopReason", async () => {
    const out = JSON.stringify({ continue: false, stopReason: "the budget for today is spent" });
    const x = await withHooks([{ event: "Stop", body: `cat > /dev/null\necho '${out}'` }]);
    x.model.push(reply.text("done"), reply.text("never sent"));
    const summary = await x.session.run("finish");
    expect(summary.outcome).toBe("completed");
    expect(summary.reason).toBe("the budget for today is spent");
    expect(x.model.requests).toHaveLength(1);
  });
});

describe("session and compaction hooks", () => {
  it("SessionStart runs again when a session is resumed, with source resume", async () => {
    const x = await withHooks([
      {
        event: "SessionStart",
        body: 'cat >> "$HOOK_DIR/start.jsonl"; echo >> "$HOOK_DIR/start.jsonl"\necho "Resumed context."',
      },
    ]);
    x.model.push(reply.text("one"));
    await x.session.run("first");
    await x.session.close();
    const again = await x.engine.openSession(x.session.id);
    x.model.push(reply.text("two"));
    await again.run("second");
    const starts = lines(await (hooks as HookScripts).read("start.jsonl")).map((l) =>
      JSON.parse(l),
    );
    expect(starts.map((s) => s.source)).toEqual(["startup", "resume"]);
    expect(JSON.stringify(x.model.requests[1]?.messages.at(-1))).toContain("Resumed context.");
  });

  it("PreCompact runs before a compaction and may block it", async () => {
    const x = await withHooks([
      {
        event: "PreCompact",
        body: 'cat > "$HOOK_DIR/compact.json"\necho "keep the whole history" >&2\nexit 2',
      },
    ]);
    const long = "A long answer about tokens. ".repeat(200);
    for (let i = 0; i < 3; i++) {
      x.model.push(reply.text(`${long} ${i}`));
      await x.session.run(`question ${i}: ${long}`);
    }
    x.model.push(
      reply.error("contextOverflow", "prompt is too long"),
      reply.text("answered anyway"),
    );
    await x.session.run("one more");
    expect(JSON.parse(await (hooks as HookScripts).read("compact.json"))).toMatchObject({
      hook_event_name: "PreCompact",
      trigger: "auto",
    });
    expect(x.recorder.ofType("compactionStarted")).toHaveLength(1);
    expect(x.recorder.ofType("compacted")).toHaveLength(0);
    expect(
      x.recorder.ofType("notice").find((n) => n.code === "context.compactionFailed")?.message,
    ).toContain("keep the whole history");
  });
});
