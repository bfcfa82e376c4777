import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { reply } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { FORMATS, main, type World, world } from "./cli.test.helpers.js";

let w: World | undefined;
afterEach(async () => {
  await w?.dispose();
  w = undefined;
});

const lines = (stdout: string) =>
  stdout
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
const bodyText = (request: { body: unknown }) => JSON.stringify(request.body);

describe.each(FORMATS)("claude -p's stream-json over %s", (format) => {
  it("writes system init, assistant, user tool results, stream events, then the result", async () => {
    w = await world({ format });
    w.provider.push(
      main(
        reply.toolCalls([{ name: "Glob", input: { pattern: "**/*.js" } }], { text: "Looking. " }),
      ),
      main(reply.text("Two files.", { usage: { input: 120, output: 8 } })),
    );
    const run = await w.run([
      "-p",
      "list the js files",
      "--output-format",
      "stream-json",
      "--verbose",
      "--include-partial-messages",
    ]);
    expect(run.stderr).not.toContain("internal error");
    expect(run.code).toBe(0);
    const out = lines(run.stdout);
    expect(out[0]).toMatchObject({
      type: "system",
      subtype: "init",
      cwd: w.repo.root,
      mcp_servers: [],
      slash_commands: expect.arrayContaining(["cost", "status"]),
    });
    const types = out.map((l) => l.type);
    expect(types.filter((t) => t === "assistant")).toHaveLength(2);
    expect(types).toContain("stream_event");
    const toolUse = out.find((l) => l.type === "assistant") as {
      message: { content: Array<{ type: string; name?: string; id?: string }> };
    };
    const call = toolUse.message.content.find((b) => b.type === "tool_use");
    expect(call).toMatchObject({ name: "Glob" });
    const result = out.find((l) => l.type === "user") as {
      message: { content: Array<Record<string, unknown>> };
    };
    expect(result.message.content[0]).toMatchObject({ type: "tool_result", tool_use_id: call?.id });
    const last = out.at(-1) as Record<string, unknown>;
    expect(last).toMatchObject({
      type: "result",
      subtype: "success",
      is_error: false,
      result: "Two files.",
      num_turns: 2,
      session_id: out[0]?.session_id,
    });
    expect(last.total_cost_usd as number).toBeGreaterThan(0);
  });
});

describe("claude -p's flags through zeng", () => {
  it("reads the prompt from stdin when -p has none", async () => {
    w = await world({ format: "anthropic" });
    w.provider.push(main(reply.text("Read you.")));
    const child = w.spawn(["-p", "--output-format", "json"]);
    child.child.stdin?.end("a prompt from stdin\n");
    const run = await child.done;
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ type: "result", text: "Read you." });
    expect(bodyText(w.mainRequests()[0] as { body: unknown })).toContain("a prompt from stdin");
  });

  it("fails with exit 2 and the reason when stdin holds no prompt", async () => {
    w = await world({ format: "anthropic" });
    const child = w.spawn(["-p"]);
    child.child.stdin?.end("");
    const run = await child.done;
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("-p needs a prompt: stdin was empty");
  });

  it("replaces and appends to the system prompt, and names --add-dir folders", async () => {
    w = await world({ format: "anthropic" });
    await writeFile(join(w.home, "extra.md"), "Always answer in haiku.");
    w.provider.push(main(reply.text("ok")));
    const run = await w.run([
      "-p",
      "hi",
      "--system-prompt",
      "You are a terse robot.",
      "--append-system-prompt-file",
      join(w.home, "extra.md"),
      "--add-dir",
      w.home,
    ]);
    expect(run.code).toBe(0);
    const first = w.mainRequests()[0];
    const system = JSON.stringify((first?.body as { system?: unknown } | undefined)?.system);
    expect(system).toContain("You are a terse robot.");
    expect(system).toContain("Always answer in haiku.");
    expect(system).toContain(w.home);
  });

  it("denies --disallowedTools and allows --allowedTools rules", async () => {
    w = await world({ format: "anthropic" });
    w.provider.push(
      main(reply.toolCall("Bash", { command: "echo allowed-ran" })),
      main(reply.toolCall("Glob", { pattern: "**/*.js" })),
      main(reply.text("done")),
    );
    const run = await w.run([
      "-p",
      "go",
      "--allowedTools",
      "Bash(echo:*)",
      "--disallowedTools",
      "Glob",
      "--output-format",
      "json",
    ]);
    expect(run.code).toBe(0);
    const [, second, third] = w.mainRequests().map(bodyText);
    expect(second).toContain("allowed-ran");
    expect(third).toMatch(/denied|deny/i);
    expect(third).not.toContain("test/token.test.js");
    expect(JSON.parse(run.stdout)).toMatchObject({
      permission_denials: [{ tool_name: "Glob", tool_input: { pattern: "**/*.js" } }],
    });
  });

  it("stops the turn at --max-budget-usd with Claude Code's error_max_budget_usd", async () => {
    w = await world({ format: "anthropic" });
    w.provider.push(
      main(reply.toolCall("Glob", { pattern: "**/*.js" }, { usage: { input: 5000, output: 500 } })),
      main(reply.text("never asked")),
    );
    const run = await w.run(["-p", "go", "--max-budget-usd", "0.0001", "--output-format", "json"]);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({
      type: "result",
      subtype: "error_max_budget_usd",
      is_error: true,
    });
    expect(w.mainRequests()).toHaveLength(1);
  });

  it("--json-schema: a mismatch goes back with its error; the match is structured_output", async () => {
    w = await world({ format: "anthropic" });
    w.provider.push(main(reply.text("The answer is 42.")), main(reply.text('{"answer": 42}')));
    const schema = JSON.stringify({
      type: "object",
      properties: { answer: { type: "number" } },
      required: ["answer"],
    });
    const run = await w.run([
      "-p",
      "what is it?",
      "--json-schema",
      schema,
      "--output-format",
      "json",
    ]);
    expect(run.stderr).not.toContain("internal error");
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      subtype: "success",
      structured_output: { answer: 42 },
    });
    const requests = w.mainRequests().map(bodyText);
    expect(requests).toHaveLength(2);
    expect(requests[1]).toContain("not accepted: the answer is not JSON");
  });

  it("--input-format stream-json: the first message is the prompt, a later one reaches the model", async () => {
    w = await world({ format: "anthropic" });
    w.provider.push(main(reply.text("first answer")), main(reply.text("second answer")));
    const child = w.spawn([
      "-p",
      "--input-format",
      "stream-json",
      "--output-format",
      "stream-json",
      "--verbose",
    ]);
    const message = (text: string) =>
      `${JSON.stringify({ type: "user", message: { role: "user", content: [{ type: "text", text }] } })}\n`;
    child.child.stdin?.write(message("first question"));
    await child.waitForLine((l) => l.includes('"type":"assistant"'));
    child.child.stdin?.write("not json\n");
    child.child.stdin?.end(message("second question"));
    const run = await child.done;
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("line 2 skipped");
    const requests = w.mainRequests().map(bodyText);
    expect(requests.at(-1)).toContain("second question");
    expect(lines(run.stdout).at(-1)).toMatchObject({ type: "result", result: "second answer" });
  });

  it("--settings maps Claude Code's permissions; a bad file is exit 2 with the reason", async () => {
    w = await world({ format: "anthropic" });
    w.provider.push(main(reply.toolCall("Glob", { pattern: "**/*.js" })), main(reply.text("done")));
    const settings = JSON.stringify({ permissions: { deny: ["Glob"] }, spinnerTipsEnabled: false });
    const run = await w.run(["-p", "go", "--settings", settings]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("`spinnerTipsEnabled` is not used by zeng");
    expect(bodyText(w.mainRequests()[1] as { body: unknown })).toMatch(/denied|deny/i);
    const broken = await w.run(["-p", "go", "--settings", join(w.home, "missing.json")]);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain("missing.json: ENOENT");
  });

  it("--settings' env reaches Bash, numbers as text, other values a notice", async () => {
    w = await world({ format: "anthropic" });
    const probe = 'printf %s "$ZENG_PROBE|$N"';
    w.provider.push(main(reply.toolCall("Bash", { command: probe })), main(reply.text("done")));
    const settings = JSON.stringify({
      env: { ZENG_PROBE: "from-flag", N: 3, BAD: { a: 1 } },
      permissions: { allow: ["Bash"] },
    });
    const run = await w.run(["-p", "go", "--settings", settings]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain("env.BAD: expected a string, number or boolean, skipped");
    expect(bodyText(w.mainRequests()[1] as { body: unknown })).toContain("from-flag|3");
  });

  it("--fallback-model: a request the main model fails is sent again to the fallback", async () => {
    w = await world({ format: "anthropic" });
    w.provider.push(
      main(reply.error("invalidRequest", "this model is gone")),
      main(reply.text("from the fallback")),
    );
    const run = await w.run(["-p", "hi", "--fallback-model", "backup-model"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("from the fallback");
    const models = w.mainRequests().map((r) => (r.body as { model: string }).model);
    expect(models).toHaveLength(2);
    expect(models[1]).toBe("backup-model");
    expect(models[0]).not.toBe("backup-model");
  });
});
