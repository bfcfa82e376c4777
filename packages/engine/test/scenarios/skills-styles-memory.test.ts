import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { reply } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { type Harness, harness, resultsOf } from "../harness.js";

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

const systemOf = (x: Harness, request: number) =>
  (x.model.requests[request]?.system ?? []).map((s) => `[${s.id}]\n${s.text}`).join("\n");

const skillFiles = {
  ".claude/skills/pdf/SKILL.md":
    "---\nname: pdf\ndescription: Fill PDF forms\nallowed-tools: Bash(python3:*)\nlicense: MIT\n---\n# PDF\nRun scripts/fill.py.",
  ".claude/skills/pdf/scripts/fill.py": "print('fill')\n",
  ".z-engine/skills/release/notes/SKILL.md":
    "---\nname: release-notes\ndescription: Write release notes\nwhen_to_use: before a release\n---\nList the changes.",
  ".z-engine/skills/hidden/SKILL.md":
    "---\ndescription: Only for users\ndisable-model-invocation: true\n---\nSecret steps.",
  ".claude/skills/broken/SKILL.md": "---\nname: broken\n---\n",
};

describe("skills", { timeout: 90_000 }, () => {
  it("are listed in the system prompt and loaded by the Skill tool with their folder", async () => {
    h = await harness({
      files: skillFiles,
      script: [reply.toolCall("Skill", { name: "pdf" }), reply.text("done")],
    });
    await h.session.run("fill the form");
    const system = systemOf(h, 0);
    expect(system).toContain(
      "[skills]\n# Skills\nLoad a skill with the Skill tool when the task matches its description.\n- pdf: Fill PDF forms\n- release-notes: Write release notes (when to use: before a release)",
    );
    expect(system).not.toContain("Only for users");
    expect(h.model.requests[0]?.tools.some((t) => t.name === "Skill")).toBe(true);
    const loaded = resultsOf(h, 1)[0];
    const text = JSON.stringify(loaded?.content);
    expect(loaded?.isError).toBeFalsy();
    expect(text).toContain(`Base folder of this skill: ${join(h.repo.root, ".claude/skills/pdf")}`);
    expect(text).toContain("- scripts/fill.py");
    expect(text).toContain("Run scripts/fill.py.");
    const notices = h.recorder.ofType("notice").map((n) => n.message);
    expect(notices.some((m) => m.includes("broken/SKILL.md") && m.includes("empty body"))).toBe(
      true,
    );
  });

  it("Skill(name) rules deny one skill; a session without skills has no Skill tool", async () => {
    h = await harness({
      files: {
        ...skillFiles,
        ".z-engine/settings.toml": '[permissions]\ndeny = ["Skill(pdf)"]\n',
      },
      script: [reply.toolCall("Skill", { name: "pdf" }), reply.text("ok")],
    });
    await h.session.run("fill the form");
    expect(resultsOf(h, 1)[0]?.isError).toBe(true);
    expect(h.recorder.ofType("toolFinished")[0]?.status).toBe("denied");
    await h.dispose();
    h = await harness({ files: {}, script: [reply.text("ok")] });
    await h.session.run("hi");
    expect(h.model.requests[0]?.tools.some((t) => t.name === "Skill")).toBe(false);
  });
});

describe("a skill's allowed-tools", { timeout: 90_000 }, () => {
  const files = {
    ".claude/skills/greet/SKILL.md":
      "---\nname: greet\ndescription: Greets\nallowed-tools: Bash(echo skill-ok:*)\n---\nRun echo skill-ok.",
  };
  const script = [
    reply.toolCall("Skill", { name: "greet" }),
    reply.toolCall("Bash", { command: "echo skill-ok" }),
    reply.text("done"),
    reply.toolCall("Bash", { command: "echo skill-ok" }),
    reply.text("done"),
  ];

  it("allow its calls for the rest of the turn in a trusted folder, and not after", async () => {
    h = await harness({ files, script, trusted: true, engine: { headless: true } });
    await h.session.run("greet");
    expect(resultsOf(h, 2)[0]?.isError).toBeFalsy();
    await h.session.run("again");
    expect(resultsOf(h, 4)[0]?.isError).toBe(true);
  });

  it("grant nothing for a project skill in an untrusted folder", async () => {
    h = await harness({ files, script, engine: { headless: true } });
    await h.session.run("greet");
    expect(resultsOf(h, 2)[0]?.isError).toBe(true);
  });
});

describe("output styles", { timeout: 90_000 }, () => {
  it("a built-in style and a custom one fill the output style section", async () => {
    h = await harness({
      files: {},
      userSettings: '[appearance]\noutput_style = "explanatory"\n',
      script: [reply.text("ok")],
    });
    await h.session.run("hi");
    expect(systemOf(h, 0)).toContain("[outputStyle]\n# Output style: explanatory");
    await h.dispose();
    h = await harness({
      files: {
        ".z-engine/settings.toml": '[appearance]\noutput_style = "terse"\n',
        ".claude/output-styles/terse.md": "---\ndescription: Short\n---\nAnswer in one line.",
      },
      script: [reply.text("ok")],
    });
    await h.session.run("hi");
    expect(systemOf(h, 0)).toContain("[outputStyle]\nAnswer in one line.");
  });
});

describe("/remember", { timeout: 90_000 }, () => {
  it("appends to AGENTS.md when the Write gate allows it; the next turn reads it", async () => {
    h = await harness({
      files: { "AGENTS.md": "# Rules\nUse tabs." },
      script: [reply.text("one"), reply.text("two")],
      overrides: { mode: "acceptEdits" },
      trusted: true,
    });
    await h.session.run("first");
    const ran = await h.session.command("remember", "Run npm test before committing");
    expect(ran.type === "output" && ran.markdown).toContain("Remembered in");
    expect(await readFile(join(h.repo.root, "AGENTS.md"), "utf8")).toBe(
      "# Rules\nUse tabs.\n- Run npm test before committing\n",
    );
    await h.session.run("second");
    expect(systemOf(h, 0)).not.toContain("Run npm test before committing");
    expect(systemOf(h, 1)).toContain("- Run npm test before committing");
  });

  it("writes nothing when the gate would ask, and says what to allow; CLAUDE.md when it is the only file", async () => {
    h = await harness({ files: { "CLAUDE.md": "Claude rules" }, script: [] });
    const ran = await h.session.command("remember", "note");
    expect(ran.type === "output" && ran.markdown).toContain("Not remembered");
    expect(ran.type === "output" && ran.markdown).toContain("CLAUDE.md");
    expect(await readFile(join(h.repo.root, "CLAUDE.md"), "utf8")).toBe("Claude rules");
  });
});
