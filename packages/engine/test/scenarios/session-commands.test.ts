import { readFile } from "node:fs/promises";
import { reply } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { type Harness, harness, resultsOf } from "../harness.js";

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

const markdown = async (name: string, args = "") => {
  const result = await (h as Harness).session.command(name, args);
  if (result.type !== "output") throw new Error(`/${name} gave ${JSON.stringify(result)}`);
  return result.markdown;
};

describe("/bash: a shell line the user runs", () => {
  it("runs in the agent's folder, answers with the output, and joins the next message", async () => {
    h = await harness({ files: { "a.txt": "hello\n" }, script: [reply.text("I see it.")] });
    const out = await markdown("bash", "cat a.txt && echo done");
    expect(out).toContain("$ cat a.txt && echo done");
    expect(out).toContain("hello\ndone");
    expect(h.model.requests).toHaveLength(0);
    await h.session.run("what did the file say?");
    const sent = JSON.stringify(h.model.requests[0]?.messages);
    expect(sent).toContain("<bash-input>cat a.txt && echo done</bash-input>");
    expect(sent).toContain("hello\\ndone");
  });

  it("keeps the gate's deny rules, and says a failing command's exit code", async () => {
    h = await harness({
      files: {},
      script: [],
      userSettings: '[permissions]\ndeny = ["Bash(rm:*)"]\n',
    });
    expect(await markdown("bash", "rm -rf build")).toMatch(/^Not run: /);
    expect(await markdown("bash", "exit 3")).toContain("exit 3");
  });
});

describe("/permissions", () => {
  it("lists the rules, adds one that applies at once and is saved, and removes it", async () => {
    h = await harness({ files: {}, script: [], overrides: { mode: "bypass" } });
    h.model.push(reply.toolCall("Bash", { command: "rm -f x" }), reply.text("Blocked."));
    expect(await markdown("permissions")).toContain("No rules.");
    expect(await markdown("permissions", "deny Bash(rm:*)")).toContain(
      "Added `Bash(rm:*)` to deny",
    );
    const saved = await readFile(h.repo.path(".z-engine/settings.local.toml"), "utf8");
    expect(saved).toMatch(/deny = \[ ?"Bash\(rm:\*\)" ?\]/);
    await h.session.run("remove x");
    expect(JSON.stringify(resultsOf(h, 1))).toMatch(/denied|Permission/);
    expect(await markdown("permissions")).toContain("| deny | `Bash(rm:*)` |");
    expect(await markdown("permissions", "remove Bash(rm:*)")).toContain(
      "and from .z-engine/settings.local.toml",
    );
    expect(await readFile(h.repo.path(".z-engine/settings.local.toml"), "utf8")).not.toContain(
      "rm:*",
    );
    expect(await markdown("permissions")).toContain("No rules.");
  });
});

describe("/model", () => {
  it("lists the provider's models and refuses an id the catalog does not know", async () => {
    h = await harness({ files: {}, script: [] });
    const list = await markdown("model");
    expect(list).toContain("Models for anthropic:");
    expect(list).toContain("- claude-opus-5");
    expect(await markdown("model", "gpt-nonexistent")).toContain("**Model:** claude-sonnet-5-5");
    const notice = h.recorder.ofType("notice").find((n) => n.code === "model.unknown");
    expect(notice?.message).toContain('Unknown model "gpt-nonexistent" for anthropic');
    expect(h.recorder.ofType("modelChanged")).toHaveLength(0);
    expect(await markdown("model", "claude-haiku-4-5-20251001")).toBe(
      "Model set to claude-haiku-4-5-20251001.",
    );
  });
});

describe("/agents, /config and /memory", () => {
  it("answer from the session", async () => {
    h = await harness({ files: { "AGENTS.md": "be brief\n" }, script: [] });
    expect(await markdown("agents")).toContain("- **explore**");
    const config = await markdown("config");
    expect(config).toContain("- Verification: auto");
    expect(config).toContain(".z-engine/settings.local.toml");
    const memory = await markdown("memory");
    expect(memory).toContain(`- project: ${h.repo.path("AGENTS.md")}\n`);
    expect(memory).toContain("AGENTS.local.md (not created yet)");
  });
});
