import { reply } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { main, type World, world } from "./cli.test.helpers.js";

let w: World | undefined;
afterEach(async () => {
  await w?.dispose();
  w = undefined;
});

describe("sessions and budgets through zeng -p", () => {
  it("--output-format json prints one object: the result and the final text; --continue picks up the newest session", async () => {
    w = await world({ format: "openai" });
    w.provider.push(main(reply.text("First answer.")), main(reply.text("Second answer.")));
    const first = await w.run(["-p", "remember-the-word-apricot", "--output-format", "json"]);
    expect(first.code).toBe(0);
    const one = JSON.parse(first.stdout) as Record<string, unknown>;
    expect(first.stdout.trim().split("\n")).toHaveLength(1);
    expect(one).toMatchObject({ type: "result", outcome: "completed", text: "First answer." });

    const second = await w.run([
      "-p",
      "what was the word",
      "--output-format",
      "json",
      "--continue",
    ]);
    expect(second.code).toBe(0);
    const two = JSON.parse(second.stdout) as Record<string, unknown>;
    expect(two).toMatchObject({ sessionId: one.sessionId, text: "Second answer." });
    expect(JSON.stringify(w.mainRequests()[1]?.body)).toContain("remember-the-word-apricot");
  });

  it("--fork-session goes on from a copy: a new session id, the earlier turn in the request, the original untouched", async () => {
    w = await world({ format: "anthropic" });
    w.provider.push(
      main(reply.text("First answer.")),
      main(reply.text("Forked answer.")),
      main(reply.text("Original again.")),
    );
    const first = await w.run(["-p", "remember-the-word-apricot", "--output-format", "json"]);
    const one = JSON.parse(first.stdout) as { sessionId: string };
    const forked = await w.run([
      "-p",
      "what was the word",
      "--output-format",
      "json",
      "-r",
      one.sessionId,
      "--fork-session",
    ]);
    expect(forked.code).toBe(0);
    // A Claude Code flag: the result is Claude Code's shape.
    const two = JSON.parse(forked.stdout) as { session_id: string; result: string };
    expect(two.result).toBe("Forked answer.");
    expect(two.session_id).toMatch(/^ses_/);
    expect(two.session_id).not.toBe(one.sessionId);
    expect(JSON.stringify(w.mainRequests()[1]?.body)).toContain("remember-the-word-apricot");
    // The original did not get the fork's turn.
    expect((await w.run(["-p", "and now", "-r", one.sessionId])).code).toBe(0);
    const third = JSON.stringify(w.mainRequests()[2]?.body);
    expect(third).toContain("remember-the-word-apricot");
    expect(third).not.toContain("what was the word");
  });

  it("--session-id names the new session; -r takes that id; a taken id fails with the reason", async () => {
    w = await world({ format: "anthropic" });
    w.provider.push(main(reply.text("Named.")), main(reply.text("Again.")));
    const id = "7c1e9a52-3b4d-4f6a-8e2c-9d0b1a2f3e4c";
    const first = await w.run(["-p", "hello", "--output-format", "json", "--session-id", id]);
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ session_id: id, result: "Named." });
    const again = await w.run(["-p", "and again", "-r", id]);
    expect(again.code).toBe(0);
    expect(JSON.stringify(w.mainRequests()[1]?.body)).toContain("hello");
    const taken = await w.run(["-p", "x", "--session-id", id]);
    expect(taken.code).toBe(1);
    expect(taken.stderr).toBe(
      `zeng: cannot create session ${id}: a session ${id} already exists\n`,
    );
  });

  it("--continue without a session and --resume of an unknown id fail with one line (exit 1)", async () => {
    w = await world({ format: "anthropic" });
    const none = await w.run(["-p", "hi", "--continue"]);
    expect(none.code).toBe(1);
    expect(none.stderr).toBe(`zeng: no session to continue in ${w.repo.root}\n`);
    const unknown = await w.run(["-p", "hi", "--resume", "ses_doesnotexist"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^zeng: cannot resume ses_doesnotexist: .+\n$/);
    expect(w.provider.requests).toHaveLength(0);
  });

  it("--max-turns ends the turn as budgetExhausted (exit 1); --model and --cwd reach the request", async () => {
    w = await world({ format: "anthropic" });
    for (let i = 0; i < 3; i++)
      w.provider.push(main(reply.toolCall("Glob", { pattern: "*.json" })));
    const run = await w.run([
      "-p",
      "loop",
      "--output-format",
      "json",
      "--max-turns",
      "2",
      "--model",
      "claude-opus-4-1",
      "--permission-mode",
      "bypass",
      "--cwd",
      w.repo.path("src"),
    ]);
    expect(run.code).toBe(1);
    const result = JSON.parse(run.stdout) as { outcome: string; reason: string };
    expect(result.outcome).toBe("budgetExhausted");
    expect(result.reason).toContain("max_turns (2");
    expect(w.mainRequests()).toHaveLength(2);
    expect(w.mainRequests().every((r) => r.model === "claude-opus-4-1")).toBe(true);
    expect(JSON.stringify(w.mainRequests()[0]?.body)).toContain(w.repo.path("src"));
  });
});
