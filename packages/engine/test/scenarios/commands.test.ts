import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { reply } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { type Harness, harness, resultsOf, userTexts } from "../harness.js";
import { serverState, testServerToml } from "../mcp-support.js";

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

describe("engine built-ins answer without the model", { timeout: 90_000 }, () => {
  it("/cost and /status emit commandOutput; run() of a built-in ends with no turn", async () => {
    h = await harness({ files: { "a.txt": "a" }, script: [] });
    const cost = await h.session.command("cost");
    expect(cost).toMatchObject({ type: "output", name: "cost" });
    expect(cost.type === "output" && cost.markdown).toContain("**Cost:** $0.0000");
    const status = await h.session.run("/status");
    expect(status.outcome).toBeNull();
    const outputs = h.recorder.ofType("commandOutput");
    expect(outputs.map((o) => o.name)).toEqual(["cost", "status"]);
    expect(outputs[1]?.markdown).toContain(`- Project: ${h.repo.root}`);
    expect(h.model.requests).toHaveLength(0);
    expect(h.recorder.ofType("turnStarted")).toHaveLength(0);
  });

  it("/mode and /model change the session; /mode with a bad value changes nothing", async () => {
    h = await harness({ files: {}, script: [] });
    h.session.send({ type: "runCommand", name: "mode", args: "plan" });
    const bad = await h.session.command("mode", "yolo");
    expect(bad.type === "output" && bad.markdown).toBe('Unknown mode "yolo".');
    expect(h.recorder.ofType("modeChanged").map((e) => e.mode)).toEqual(["plan"]);
    await h.session.command("model", "claude-opus-5");
    expect(h.recorder.ofType("modelChanged").map((e) => e.model)).toEqual(["claude-opus-5"]);
  });

  it("an unknown name gets a notice with close matches and no model request", async () => {
    h = await harness({ files: {}, script: [] });
    const summary = await h.session.run("/cots");
    expect(summary.outcome).toBeNull();
    const notice = h.recorder.ofType("notice").find((n) => n.code === "command.unknown");
    expect(notice?.message).toBe("Unknown command /cots. Did you mean /cost?");
    expect(h.model.requests).toHaveLength(0);
  });

  it("a prompt with a path is not a command", async () => {
    h = await harness({ files: {}, script: [reply.text("ok")] });
    await h.session.run("/usr/bin is slow");
    expect(userTexts(h)[0]).toBe("/usr/bin is slow");
  });
});

describe("custom commands", { timeout: 90_000 }, () => {
  it("precedence: .z-engine > .claude > user; nested folders; shadowing rules", async () => {
    h = await harness({
      files: {
        ".z-engine/commands/fix.md": "---\ndescription: z-engine fix\n---\nZ fix $1",
        ".claude/commands/fix.md": "---\ndescription: claude fix\n---\nClaude fix $1",
        ".claude/commands/frontend/component.md":
          "---\ndescription: Make a component\nargument-hint: <name>\n---\nMake $1",
        ".claude/commands/review.md": "---\ndescription: my review\n---\nMy own review",
        ".claude/commands/cost.md": "---\ndescription: not allowed\n---\nShadow cost",
      },
      script: [reply.text("done"), reply.text("done")],
    });
    const userDir = join(h.home, "config", "commands");
    await mkdir(userDir, { recursive: true });
    await writeFile(join(userDir, "fix.md"), "User fix");
    await writeFile(join(userDir, "mine.md"), "---\ndescription: user only\n---\nMine");
    const list = await h.session.commands();
    const byName = new Map(list.map((c) => [c.name, c]));
    expect(byName.get("fix")).toMatchObject({ kind: "custom", description: "z-engine fix" });
    expect(byName.get("frontend:component")).toMatchObject({
      kind: "custom",
      argumentHint: "<name>",
      scope: "project",
    });
    expect(byName.get("review")).toMatchObject({ kind: "custom", description: "my review" });
    expect(byName.get("cost")?.kind).toBe("engine");
    expect(byName.get("mine")).toMatchObject({ kind: "custom", scope: "user" });
    expect(byName.get("init")?.kind).toBe("prompt");
    expect(list.filter((c) => c.name === "fix")).toHaveLength(1);

    const ran = await h.session.command("frontend:component", "Button");
    expect(ran).toMatchObject({ type: "turn", summary: { outcome: "completed" } });
    expect(userTexts(h)).toEqual([
      "/frontend:component Button",
      '<command name="frontend:component">\nMake Button\n</command>',
    ]);
    await h.session.command("cost");
    const problems = h.recorder.ofType("notice").filter((n) => n.code === "command.problem");
    expect(problems.some((p) => p.message.includes("/cost is an engine command"))).toBe(true);
  });

  it("zeng -p style: a submitted /name runs the command as a turn", async () => {
    h = await harness({
      files: { ".z-engine/commands/fix-issue.md": "Fix issue #$ARGUMENTS, test first." },
      script: [reply.text("fixed")],
    });
    const summary = await h.session.run("/fix-issue 123");
    expect(summary.outcome).toBe("completed");
    expect(userTexts(h)).toEqual([
      "/fix-issue 123",
      '<command name="fix-issue">\nFix issue #123, test first.\n</command>',
    ]);
    expect(h.recorder.ofType("turnStarted")[0]?.prompt).toBe("/fix-issue 123");
  });

  it("discovery survives odd files; an unreadable one is a notice", async () => {
    h = await harness({
      files: {
        ".claude/commands/bom.md": "\uFEFF---\ndescription: with a BOM\n---\nBOM body",
        ".claude/commands/zw.md": "---\ndescription: zero\u200Bwidth\n---\nZW \u200B body",
        ".claude/commands/plain.md": "Just a body, no frontmatter.",
        ".claude/commands/list.md":
          "---\nallowed-tools:\n  - Read\n  - Bash(git status:*)\ndescription: list\n---\nL",
        ".claude/commands/comma.md":
          "---\nallowed-tools: Read, Bash(git add:*, git commit:*)\n---\nC",
        ".claude/commands/hint.md": "---\nargument-hint: [a] [b]\ndescription: hint\n---\nH $1 $2",
        ".claude/commands/empty.md": "---\ndescription: nothing\n---\n",
      },
      script: [],
    });
    await symlink(
      join(h.repo.root, "missing-target.md"),
      join(h.repo.root, ".claude/commands/broken.md"),
    );
    const list = await h.session.commands();
    const byName = new Map(list.map((c) => [c.name, c]));
    expect(byName.get("bom")?.description).toBe("with a BOM");
    expect(byName.get("zw")).toBeDefined();
    expect(byName.get("plain")?.description).toBe("Just a body, no frontmatter.");
    expect(byName.get("hint")?.argumentHint).toBe("[a] [b]");
    expect([...byName.keys()]).toEqual(expect.arrayContaining(["list", "comma"]));
    await h.session.command("cost");
    const problems = h.recorder.ofType("notice").filter((n) => n.code === "command.problem");
    expect(problems.some((p) => p.message.includes("broken.md was not read"))).toBe(true);
    expect(problems.some((p) => p.message.includes("empty.md"))).toBe(true);
  });
});

describe("templates through the gate", { timeout: 90_000 }, () => {
  const body = [
    "---",
    "allowed-tools: Bash(echo from-command:*)",
    "---",
    "Status: !`echo from-command $1`",
    "Read @notes.txt please.",
    "Mail me at dev@example.com, `@notes.txt` stays.",
    "```",
    "!`echo never-in-a-fence`",
    "```",
  ].join("\n");

  it("trusted: !`cmd` runs under allowed-tools, @path is inlined, the rules last one turn", async () => {
    h = await harness({
      files: { ".z-engine/commands/check.md": body, "notes.txt": "NOTE TEXT" },
      script: [
        reply.toolCall("Bash", { command: "echo from-command again" }),
        reply.text("done"),
        reply.toolCall("Bash", { command: "echo from-command again" }),
        reply.text("done"),
      ],
      trusted: true,
      engine: { headless: true },
    });
    await h.session.run("/check x1");
    const [, command] = userTexts(h);
    expect(command).toContain("Status: from-command x1\n");
    expect(command).toContain('<file path="notes.txt">\nNOTE TEXT\n</file>');
    expect(command).toContain("Mail me at dev@example.com, `@notes.txt` stays.");
    expect(command).toContain("!`echo never-in-a-fence`");
    expect(resultsOf(h, 1)[0]?.isError).toBeFalsy();
    // The next turn has no such rule: headless denies the ask.
    await h.session.run("again");
    expect(resultsOf(h, 3)[0]?.isError).toBe(true);
  });

  it("untrusted: a project command's allowed-tools grant nothing and its ! lines do not run", async () => {
    h = await harness({
      files: { ".z-engine/commands/check.md": body, "notes.txt": "NOTE TEXT" },
      script: [reply.toolCall("Bash", { command: "echo from-command again" }), reply.text("done")],
      engine: { headless: true },
    });
    await h.session.run("/check x1");
    const [, command] = userTexts(h);
    expect(command).toContain("Status: !`echo from-command x1`");
    expect(command).not.toContain("Status: from-command");
    expect(resultsOf(h, 1)[0]?.isError).toBe(true);
    const notes = h.recorder.ofType("notice").filter((n) => n.code === "command.expand");
    expect(notes.map((n) => n.message).join("\n")).toContain("not trusted");
  });

  it("a command's model applies to its turn only", async () => {
    h = await harness({
      files: { ".z-engine/commands/quick.md": "---\nmodel: small-model\n---\nBe quick." },
      script: [reply.text("a"), reply.text("b")],
    });
    await h.session.run("/quick");
    await h.session.run("normal");
    expect(h.model.requests[0]?.model).toBe("small-model");
    expect(h.model.requests[1]?.model).not.toBe("small-model");
  });

  it("a command's model alias resolves through the catalog, as a subagent's does", async () => {
    h = await harness({
      files: { ".claude/commands/cheap.md": "---\nmodel: haiku\n---\nBe cheap." },
      script: [reply.text("a")],
    });
    await h.session.run("/cheap");
    const sent = h.model.requests[0]?.model ?? "";
    expect(sent).not.toBe("haiku");
    expect(sent).toMatch(/^claude-.*haiku/);
  });

  it("@path respects the size limit and deny rules", async () => {
    h = await harness({
      files: {
        ".z-engine/commands/read.md": "Look at @big.txt and @secret.txt and @ok.txt",
        "big.txt": "x".repeat(256 * 1024 + 1),
        "secret.txt": "SECRET",
        "ok.txt": "fine",
        ".z-engine/settings.toml": '[permissions]\ndeny = ["Read(secret.txt)"]\n',
      },
      script: [reply.text("ok")],
    });
    await h.session.run("/read");
    const [, command] = userTexts(h);
    expect(command).toContain('<file path="ok.txt">\nfine\n</file>');
    expect(command).not.toContain("SECRET");
    expect(command).not.toContain("xxxx");
    const notes = h.recorder.ofType("notice").map((n) => n.message);
    expect(notes.some((m) => m.includes("@big.txt was not inlined: it is over 256 KiB"))).toBe(
      true,
    );
    expect(notes.some((m) => m.includes("@secret.txt was not inlined"))).toBe(true);
  });
});

describe("MCP prompts as commands", { timeout: 90_000 }, () => {
  it("/mcp__<server>__<prompt> starts a turn; a missing argument is a notice, no turn", async () => {
    h = await harness({
      files: {},
      script: [reply.text("hi Ada")],
      userSettings: testServerToml("test"),
    });
    await serverState(h, "test", "ready");
    const listed = await h.session.commands();
    expect(listed.find((c) => c.name === "mcp__test__greet")).toMatchObject({
      kind: "mcp",
      description: "Greets someone.",
    });
    const missing = await h.session.command("mcp__test__greet", "style=cheerful");
    expect(missing).toMatchObject({
      type: "notice",
      message: "/mcp__test__greet needs the argument name",
    });
    const ran = await h.session.command("mcp__test__greet", "Ada warm");
    expect(ran).toMatchObject({ type: "turn", summary: { outcome: "completed" } });
    expect(userTexts(h)).toEqual([
      "/mcp__test__greet Ada warm",
      '<command name="mcp__test__greet">\nSay hello to Ada in a warm way.\n</command>',
    ]);
  });
});

describe("the other engine built-ins", { timeout: 90_000 }, () => {
  it("/context shows the repo map's size; /effort, /todos, /mcp, /doctor and /add-dir answer without the model", async () => {
    h = await harness({
      files: {
        "src/a.ts": "export function alpha() { return 1; }\n",
        "b.ts": "import { alpha } from './src/a';\nexport const b = alpha();\n",
      },
      script: [],
      repoMap: true,
    });
    await h.session.repoMapIdle();
    const context = await h.session.command("context");
    // /context shows the map's size; a finished build joins the next user message.
    const map = h.session.repoMap();
    expect(map).toMatchObject({ state: "ready" });
    expect(map.tokens).toBeGreaterThan(0);
    expect(context.type === "output" && context.markdown).toContain(
      `Repo map: ready, ${map.tokens.toLocaleString("en-US")} tokens (${map.files} files, ${map.definitions} definitions), built `,
    );
    expect(map.source).toBe("build");
    expect(context.type === "output" && context.markdown).toMatch(
      /built \d+ s ago, joins the next message/,
    );
    expect(context.type === "output" && context.markdown).toMatch(/\| system: base \| \d/);
    const effort = await h.session.command("effort", "high");
    expect(effort.type === "output" && effort.markdown).toBe("Effort set to high.");
    expect(h.recorder.ofType("effortChanged").map((e) => e.effort)).toEqual(["high"]);
    const todos = await h.session.command("todos");
    expect(todos.type === "output" && todos.markdown).toBe("No todos.");
    const mcp = await h.session.command("mcp");
    expect(mcp.type === "output" && mcp.markdown).toBe("No MCP servers are configured.");
    const doctor = await h.session.command("doctor");
    expect(doctor.type === "output" && doctor.markdown).toContain("- Workspace: not trusted");
    const extra = await mkdtemp(join(tmpdir(), "zeng-extra-"));
    const added = await h.session.command("add-dir", extra);
    expect(added.type === "output" && added.markdown).toBe(`Added ${extra} for this session.`);
    const saved = await h.session.command("add-dir", `--save ${extra}`);
    expect(saved.type === "output" && saved.markdown).toContain(
      "saved to .z-engine/settings.local.toml",
    );
    expect(await readFile(join(h.repo.root, ".z-engine/settings.local.toml"), "utf8")).toContain(
      extra,
    );
    const status = await h.session.command("status");
    expect(status.type === "output" && status.markdown).toContain("- Effort: high");
    const compact = await h.session.command("compact");
    expect(compact.type === "output" && compact.markdown).toBe(
      "Nothing was compacted: the conversation has no messages yet.",
    );
    const missing = await h.session.command("add-dir", "/no/such/folder");
    expect(missing.type === "output" && missing.markdown).toBe("/no/such/folder is not a folder.");
    expect(h.model.requests).toHaveLength(0);
    await rm(extra, { recursive: true, force: true });
  });
});
