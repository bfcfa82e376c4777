import { existsSync } from "node:fs";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { reply } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import {
  type Harness,
  harness,
  resultsOf,
  userTexts as lastUser,
  withTempDir,
} from "../harness.js";

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

/** The text blocks of the last user message of a model request. */
const userTexts = (x: Harness, request = 0) => lastUser(x, request, "last");

const files = {
  ".claude/skills/pdf/SKILL.md":
    "---\nname: pdf\ndescription: Fill PDF forms\nargument-hint: [file]\n---\nFill the form with $\u007bCLAUDE_SKILL_DIR}/fill.py.",
  ".claude/skills/explain/SKILL.md":
    "---\nname: explain\ndescription: Explain code\nargument-hint: <path> <depth>\n---\nExplain $ARGUMENTS[0] at depth $2.",
  ".claude/skills/deploy/SKILL.md":
    "---\nname: deploy\ndescription: Deploy\ndisable-model-invocation: true\n---\nDeploy now.",
  ".claude/skills/background/SKILL.md":
    "---\nname: background\ndescription: Only the model\nuser-invocable: false\n---\nKnowledge.",
  ".claude/skills/review-pr/SKILL.md":
    "---\nname: review-pr\ndescription: the skill\n---\nSkill review.",
  ".claude/commands/review-pr.md": "---\ndescription: the command\n---\nCommand review.",
};

describe("skills are slash commands", { timeout: 90_000 }, () => {
  it("/<skill> starts a turn with the skill's folder and its arguments", async () => {
    h = await harness({ files, script: [reply.text("done"), reply.text("done")] });
    const dir = join(h.repo.root, ".claude/skills/pdf");
    const summary = await h.session.run("/pdf form.pdf");
    expect(summary.outcome).toBe("completed");
    expect(userTexts(h)).toEqual([
      "/pdf form.pdf",
      `<command name="pdf">\nBase directory for this skill: ${dir}\n\nFill the form with ${dir}/fill.py.\n\nARGUMENTS: form.pdf\n</command>`,
    ]);
    await h.session.run("/explain src/a.ts 3");
    expect(userTexts(h, 1)[1]).toContain("Explain src/a.ts at depth 3.");
  });

  it("the listing: kind skill, argument-hint; user-invocable: false is not offered; a skill beats a command", async () => {
    h = await harness({ files, script: [reply.text("done"), reply.text("done")] });
    const byName = new Map((await h.session.commands()).map((c) => [c.name, c]));
    expect(byName.get("pdf")).toMatchObject({
      kind: "skill",
      description: "Fill PDF forms",
      argumentHint: "[file]",
      scope: "project",
    });
    expect(byName.get("explain")?.argumentHint).toBe("<path> <depth>");
    expect(byName.get("deploy")?.kind).toBe("skill");
    expect(byName.has("background")).toBe(false);
    expect(byName.get("review-pr")).toMatchObject({ kind: "skill", description: "the skill" });
    await h.session.run("/deploy");
    expect(userTexts(h)[1]).toContain("Deploy now.");
    await h.session.run("/review-pr");
    expect(userTexts(h, 1)[1]).toContain("Skill review.");
    const unknown = await h.session.command("background");
    expect(unknown).toMatchObject({ type: "notice" });
  });

  it("a user's ~/.claude/skills skill is /<name> too; a project skill of its name wins", async () => {
    h = await harness({
      files,
      script: [reply.text("done"), reply.text("done")],
      prepare: async (_repo, home) => {
        for (const name of ["mine", "pdf"]) {
          const dir = join(home, ".claude", "skills", name);
          await mkdir(dir, { recursive: true });
          await writeFile(
            join(dir, "SKILL.md"),
            `---\ndescription: user ${name}\n---\nUser ${name}.`,
          );
        }
      },
    });
    const byName = new Map((await h.session.commands()).map((c) => [c.name, c]));
    expect(byName.get("mine")).toMatchObject({ kind: "skill", scope: "user" });
    expect(byName.get("pdf")).toMatchObject({ scope: "project" });
    await h.session.run("/mine");
    expect(userTexts(h)[1]).toContain(
      `Base directory for this skill: ${join(h.home, ".claude/skills/mine")}\n\nUser mine.`,
    );
  });

  it("its allowed-tools hold for that turn in a trusted folder; its model alias resolves", async () => {
    h = await harness({
      files: {
        ".claude/skills/greet/SKILL.md":
          "---\nname: greet\ndescription: Greets\nmodel: haiku\nallowed-tools: Bash(echo skill-ok:*)\n---\nRun echo skill-ok.",
      },
      script: [
        reply.toolCall("Bash", { command: "echo skill-ok" }),
        reply.text("done"),
        reply.toolCall("Bash", { command: "echo skill-ok" }),
        reply.text("done"),
      ],
      trusted: true,
      engine: { headless: true },
    });
    await h.session.run("/greet");
    expect(resultsOf(h, 1)[0]?.isError).toBeFalsy();
    expect(h.model.requests[0]?.model).not.toBe("haiku");
    expect(h.model.requests[0]?.model).not.toBe(h.model.requests[2]?.model);
    await h.session.run("again");
    expect(resultsOf(h, 3)[0]?.isError).toBe(true);
  });
});

describe("subfolder commands", { timeout: 90_000 }, () => {
  it("are namespace:name, and also their file name (Claude Code's) when nothing else has it", async () => {
    h = await harness({
      files: {
        ".claude/commands/frontend/component.md":
          "---\ndescription: Make a component\n---\nMake $1",
        ".claude/commands/git/review.md": "---\ndescription: git review\n---\nGit review",
        ".claude/commands/db/cost.md": "---\ndescription: db cost\n---\nDb cost",
      },
      script: [reply.text("done"), reply.text("done")],
    });
    const byName = new Map((await h.session.commands()).map((c) => [c.name, c]));
    expect(byName.get("frontend:component")?.description).toBe("Make a component");
    expect(byName.get("component")).toMatchObject({
      kind: "custom",
      description: "Make a component (project:frontend)",
    });
    // A built-in keeps its name; the subfolder command stays reachable by its full name.
    expect(byName.get("review")?.kind).toBe("prompt");
    expect(byName.get("cost")?.kind).toBe("engine");
    expect(byName.get("db:cost")?.kind).toBe("custom");
    await h.session.run("/component Button");
    expect(userTexts(h)).toEqual([
      "/component Button",
      '<command name="component">\nMake Button\n</command>',
    ]);
  });
});

describe("hooks: in a command's or skill's frontmatter", { timeout: 90_000 }, () => {
  const withHooks = (dir: string, head: string) =>
    [
      "---",
      head,
      "hooks:",
      "  PreToolUse:",
      "    - matcher: Bash",
      "      hooks:",
      "        - type: command",
      `          command: touch ${dir}/pre-bash`,
      "  Stop:",
      "    - hooks:",
      "        - type: command",
      `          command: touch ${dir}/stop`,
      "---",
      "Run echo.",
    ].join("\n");
  const script = [
    reply.toolCall("Bash", { command: "echo one" }),
    reply.text("done"),
    reply.toolCall("Bash", { command: "echo two" }),
    reply.text("done"),
  ];

  it.each([
    [".claude/commands/hooked.md", "description: Hooked command"],
    [".claude/skills/hooked/SKILL.md", "name: hooked\ndescription: Hooked skill"],
  ])("%s: its hooks run in the turn it starts, and not after", async (path, head) => {
    await withTempDir(async (dir) => {
      h = await harness({
        files: { [path]: withHooks(dir, head) },
        script,
        trusted: true,
        overrides: { mode: "bypass" },
      });
      await h.session.run("/hooked");
      expect(existsSync(join(dir, "pre-bash"))).toBe(true);
      expect(existsSync(join(dir, "stop"))).toBe(true);
      await rm(join(dir, "pre-bash"));
      await rm(join(dir, "stop"));
      await h.session.run("plain turn");
      expect(existsSync(join(dir, "pre-bash"))).toBe(false);
      expect(existsSync(join(dir, "stop"))).toBe(false);
    });
  });

  it("a project's command in an untrusted folder runs no hooks, with a notice", async () => {
    await withTempDir(async (dir) => {
      h = await harness({
        files: { ".claude/commands/hooked.md": withHooks(dir, "description: Hooked") },
        script,
        overrides: { mode: "bypass" },
      });
      await h.session.run("/hooked");
      expect(existsSync(join(dir, "pre-bash"))).toBe(false);
      const notes = h.recorder.ofType("notice").filter((n) => n.code === "command.expand");
      expect(notes.map((n) => n.message)).toContain(
        "/hooked: this folder is not trusted, so the command's hooks do not run",
      );
    });
  });
});
