import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import type { ModelRequest, TextBlock } from "@z-engine/protocol";
import { reply, when } from "@z-engine/testkit";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type Harness, harness, withTempDir } from "../harness.js";

vi.setConfig({ testTimeout: 60_000 });

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

const systemText = (r: ModelRequest) => JSON.stringify(r.system);
const sub = (marker: string) => (r: ModelRequest) => systemText(r).includes(marker);
const main = (marker: string) => (r: ModelRequest) => !systemText(r).includes(marker);
/** The text of the last message of a request (the user message with its reminders). */
const lastText = (r: ModelRequest | undefined) =>
  (r?.messages.at(-1)?.content ?? [])
    .filter((b): b is TextBlock => b.type === "text")
    .map((b) => b.text)
    .join("\n");

const REVIEWER = "MARKER-REVIEWER: you review code.";
const agentFile = (name: string, marker: string, extra = "") =>
  `---\nname: ${name}\ndescription: The ${name} agent\ntools: Read\n${extra}---\n${marker}\n`;
const files = {
  "src/a.ts": "export const a = 1;\n",
  ".claude/agents/reviewer.md": agentFile("reviewer", REVIEWER),
  ".z-engine/commands/check.md":
    "---\ndescription: Check a file with the reviewer\n---\nHave @agent-reviewer check $ARGUMENTS.\n",
};
const reminderFor = (name: string) =>
  `use the Agent tool with subagent_type "${name}" for this request`;

describe("@agent-<name> in a prompt", () => {
  it("adds the reminder to use the Agent tool with that type to the turn's user message", async () => {
    h = await harness({ files, script: [] });
    h.model.push(
      when(
        main(REVIEWER),
        reply.toolCall("Agent", { description: "d", prompt: "p", subagent_type: "reviewer" }),
      ),
      when(sub(REVIEWER), reply.text("reviewed")),
      when(main(REVIEWER), reply.text("done")),
      when(main(REVIEWER), reply.text("no mention, no reminder")),
    );
    expect((await h.session.run("Ask @agent-reviewer about src/a.ts.")).outcome).toBe("completed");
    const first = h.model.requests[0];
    expect(lastText(first)).toContain("Ask @agent-reviewer about src/a.ts.");
    expect(lastText(first)).toContain(reminderFor("reviewer"));
    // Recorded into the message itself: the next request's history carries the same bytes.
    const later = h.model.requests.filter(main(REVIEWER)).at(-1);
    expect(later).not.toBe(first);
    expect(JSON.stringify(later?.messages[0]?.content)).toContain(
      reminderFor("reviewer").replace(/"/g, '\\"'),
    );
    await h.session.run("and now without one");
    expect(lastText(h.model.requests.at(-1))).not.toContain("use the Agent tool");
    expect(h.recorder.ofType("notice").filter((n) => n.code === "agents.unknownMention")).toEqual(
      [],
    );
  });

  it("an unknown name adds no reminder and gives one notice naming the known types", async () => {
    h = await harness({ files, script: [reply.text("ok")] });
    await h.session.run("Ask @agent-nobody and @agent-reviewer, then @agent-nobody again.");
    const text = lastText(h.model.requests[0]);
    expect(text).toContain(reminderFor("reviewer"));
    expect(text).not.toContain('subagent_type "nobody"');
    const notices = h.recorder.ofType("notice").filter((n) => n.code === "agents.unknownMention");
    expect(notices).toHaveLength(1);
    expect(notices[0]?.message).toMatch(/^@agent-nobody: no such agent type.*known: .*reviewer/);
  });

  it("a prompt command's body mentioning an agent adds the reminder too", async () => {
    h = await harness({ files, script: [reply.text("ok")] });
    await h.session.run("/check src/a.ts");
    const text = lastText(h.model.requests[0]);
    expect(text).toContain("Have @agent-reviewer check src/a.ts.");
    expect(text).toContain(reminderFor("reviewer"));
  });
});

describe("a definition's model", () => {
  const MARKS = { inh: "MARKER-INHERIT", hk: "MARKER-HAIKU", id: "MARKER-ID", fast: "MARKER-FAST" };
  const modelFiles = {
    ".claude/agents/inh.md": agentFile("inh", MARKS.inh, "model: inherit\n"),
    ".claude/agents/hk.md": agentFile("hk", MARKS.hk, "model: haiku\n"),
    ".claude/agents/id.md": agentFile("id", MARKS.id, "model: gpt-5-mini\n"),
    ".claude/agents/fst.md": agentFile("fst", MARKS.fast, "model: fast\n"),
  };
  const anySub = (r: ModelRequest) => Object.values(MARKS).some((m) => systemText(r).includes(m));

  it("runs the subagent on that model: inherit, an alias the catalog resolves, an id, the fast role", async () => {
    h = await harness({
      files: modelFiles,
      script: [],
      userSettings: '[model]\nmain = "claude-sonnet-5-5"\nfast = "claude-3-5-haiku-latest"\n',
    });
    const call = (type: string) => ({
      name: "Agent",
      input: { description: type, prompt: "p", subagent_type: type },
    });
    h.model.push(
      when((r) => !anySub(r), reply.toolCalls(["inh", "hk", "id", "fst"].map(call))),
      ...Object.values(MARKS).map((m) => when(sub(m), reply.text(`report ${m}`))),
      when((r) => !anySub(r), reply.text("done")),
    );
    expect((await h.session.run("run all four")).outcome).toBe("completed");
    const modelOf = (marker: string) => h?.model.requests.find(sub(marker))?.model;
    expect(modelOf(MARKS.inh)).toBe("claude-sonnet-5-5");
    // The session's fast model is of the haiku family, so `haiku` means it.
    expect(modelOf(MARKS.hk)).toBe("claude-3-5-haiku-latest");
    expect(modelOf(MARKS.id)).toBe("gpt-5-mini");
    expect(modelOf(MARKS.fast)).toBe("claude-3-5-haiku-latest");
    expect(h.model.requests.filter((r) => !anySub(r)).map((r) => r.model)).toEqual([
      "claude-sonnet-5-5",
      "claude-sonnet-5-5",
    ]);
  });

  it("an alias of another family resolves to its catalog id; inherit follows /model", async () => {
    h = await harness({
      files: modelFiles,
      script: [],
      userSettings: '[model]\nmain = "anthropic/claude-sonnet-5-5"\n',
    });
    const call = (type: string) => ({
      name: "Agent",
      input: { description: type, prompt: "p", subagent_type: type },
    });
    h.model.push(
      when((r) => !anySub(r), reply.toolCalls(["hk"].map(call))),
      when(sub(MARKS.hk), reply.text("haiku report", { usage: { input: 1_000_000, output: 0 } })),
      when((r) => !anySub(r), reply.text("done")),
    );
    await h.session.run("haiku");
    expect(h.model.requests.find(sub(MARKS.hk))?.model).toBe("anthropic/claude-haiku-4-5");
    // Priced as that model by the catalog ($1 a million input tokens; the main model's is $2).
    const report = JSON.stringify(h.model.requests.at(-1)?.messages.at(-1));
    expect(report).toContain("usage: 1000000 in / 0 out tokens, $1.00");
    await h.session.command("model", "claude-opus-5");
    h.model.push(
      when((r) => !anySub(r), reply.toolCalls(["inh"].map(call))),
      when(sub(MARKS.inh), reply.text("inherit report")),
      when((r) => !anySub(r), reply.text("done")),
    );
    await h.session.run("inherit");
    expect(h.model.requests.find(sub(MARKS.inh))?.model).toBe("claude-opus-5");
  });
});

describe("an agent's skills:", () => {
  it("are preloaded into its system prompt whole; an unknown one is a notice", async () => {
    const MARKER = "MARKER-DOCS: you write docs.";
    h = await harness({
      files: {
        ".claude/agents/docs.md": agentFile("docs", MARKER, "skills: style-guide, missing\n"),
        ".claude/skills/style-guide/SKILL.md":
          "---\nname: style-guide\ndescription: House style\ndisable-model-invocation: true\n---\nSTYLE-BODY: short sentences.",
        ".claude/skills/style-guide/examples.md": "Example.\n",
        ".claude/skills/other/SKILL.md": "---\nname: other\ndescription: Other\n---\nOTHER-BODY",
      },
      script: [],
    });
    h.model.push(
      when(
        main(MARKER),
        reply.toolCall("Agent", { description: "d", prompt: "p", subagent_type: "docs" }),
      ),
      when(sub(MARKER), reply.text("written")),
      when(main(MARKER), reply.text("done")),
    );
    expect((await h.session.run("write the docs")).outcome).toBe("completed");
    const child = h.model.requests.find(sub(MARKER));
    const system = (child?.system ?? []).map((s) => s.text).join("\n");
    expect(system).toContain(`${MARKER}\n\n# Skill: style-guide`);
    expect(system).toContain("STYLE-BODY: short sentences.");
    expect(system).toContain("- examples.md");
    expect(system).not.toContain("OTHER-BODY");
    expect(systemText(h.model.requests[0] as ModelRequest)).not.toContain("STYLE-BODY");
    const notices = h.recorder.ofType("notice").filter((n) => n.code === "agent.skill");
    expect(notices.map((n) => n.message)).toEqual([
      'agent docs lists skill "missing", which this session does not have; it is not preloaded',
    ]);
  });
});

describe("an agent's hooks:", () => {
  const MARKER = "MARKER-HOOKED: you run commands.";
  const hookedAgent = (dir: string) =>
    [
      "---",
      "name: hooked",
      "description: Runs with its own hooks",
      "tools: Bash",
      "hooks:",
      "  PreToolUse:",
      '    - matcher: "Bash"',
      "      hooks:",
      "        - type: command",
      `          command: "touch ${dir}/agent-pre-bash"`,
      "  Stop:",
      "    - hooks:",
      "        - type: command",
      `          command: touch ${dir}/agent-stop`,
      "---",
      MARKER,
    ].join("\n");
  const script = (x: Harness) =>
    x.model.push(
      when(
        main(MARKER),
        reply.toolCall("Agent", { description: "d", prompt: "p", subagent_type: "hooked" }),
      ),
      when(sub(MARKER), reply.toolCall("Bash", { command: "echo in-agent" })),
      when(sub(MARKER), reply.text("agent done")),
      when(main(MARKER), reply.toolCall("Bash", { command: "echo in-main" })),
      when(main(MARKER), reply.text("done")),
    );

  it("run while the agent runs (its Stop as SubagentStop), never for the main agent", async () => {
    await withTempDir(async (dir) => {
      h = await harness({
        files: { ".claude/agents/hooked.md": hookedAgent(dir) },
        script: [],
        trusted: true,
        overrides: { mode: "bypass" },
      });
      script(h);
      expect((await h.session.run("go")).outcome).toBe("completed");
      expect(existsSync(join(dir, "agent-pre-bash"))).toBe(true);
      expect(existsSync(join(dir, "agent-stop"))).toBe(true);
      // The main agent's own Bash call ran after the subagent: the marker was made once.
      await rm(join(dir, "agent-pre-bash"));
      h.model.push(when(main(MARKER), reply.toolCall("Bash", { command: "echo again" })));
      h.model.push(when(main(MARKER), reply.text("done")));
      await h.session.run("again");
      expect(existsSync(join(dir, "agent-pre-bash"))).toBe(false);
    });
  });

  it("do not run for a project's agent in an untrusted folder, with a notice", async () => {
    await withTempDir(async (dir) => {
      h = await harness({
        files: { ".claude/agents/hooked.md": hookedAgent(dir) },
        script: [],
        overrides: { mode: "bypass" },
      });
      script(h);
      await h.session.run("go");
      expect(existsSync(join(dir, "agent-pre-bash"))).toBe(false);
      const notices = h.recorder.ofType("notice").filter((n) => n.code === "agent.hooks");
      expect(notices.map((n) => n.message)).toEqual([
        "agent hooked: its hooks do not run, as this folder is not trusted",
      ]);
    });
  });
});
