import { readFile } from "node:fs/promises";
import { MCP_TEST_SERVER, reply, when } from "@z-engine/testkit";
import { describe, expect, it } from "vitest";
import { newSession, openTab, send, startFixture, sharedBrowser } from "./web-harness.js";

// Context: what the model sees now (sections, instruction files, skills, the repo map, MCP
// servers and tools, tokens used and left, compactions and what they dropped). Settings and
// trust: effective values with their origins, rules added, edited and removed, the trust
// report and the trust action.

const { cleanup, page } = sharedBrowser();

describe("the Context screen", { timeout: 90_000 }, () => {
  it("shows sections, instruction files, skills, MCP servers, tokens left and a compaction with what it dropped", async () => {
    const f = await startFixture({
      files: {
        "AGENTS.md": "Answer briefly.\n",
        ".claude/skills/deploy/SKILL.md":
          "---\nname: deploy\ndescription: Deploys the app\n---\nRun deploy.\n",
        "a.txt": "a\n",
      },
      script: [
        reply.text("first"),
        reply.text("second"),
        reply.error("contextOverflow", "prompt is too long"),
        reply.text("after compaction"),
      ],
      fastScript: [
        when((r) => JSON.stringify(r.system).includes("title"), reply.text("Title")),
        reply.text("Summary: the user asked two questions."),
      ],
      settings: {
        mcp: { servers: { everything: { command: process.execPath, args: [MCP_TEST_SERVER] } } },
      },
    });
    cleanup.push(() => f.dispose());
    const p = await page();
    await newSession(p, f);
    for (const q of ["first question", "second question", "third question"]) {
      await send(p, q);
      await expect
        .poll(() => p.getByTestId("turn-end").count(), { timeout: 20_000 })
        .toBe(["first question", "second question", "third question"].indexOf(q) + 1);
    }
    await p.getByTestId("compaction").waitFor();
    await openTab(p, "Context");
    const panel = p.getByTestId("context-panel");
    await panel.waitFor();
    expect(await panel.getByTestId("context-usage").textContent()).toMatch(
      /About [\d.,k]+ of [\d.,k]+ tokens used · [\d.,k]+ left/,
    );
    expect(await panel.getByRole("table", { name: "Instruction files" }).textContent()).toContain(
      f.repo.path("AGENTS.md"),
    );
    const sections = panel.getByRole("table", { name: "System sections" });
    expect(await sections.textContent()).toContain("instructions");
    // Each section with its size.
    expect(await sections.locator("tr", { hasText: "instructions" }).textContent()).toMatch(
      /instructions[\d.,k]+$/,
    );
    expect(await panel.getByRole("region", { name: "Skills" }).textContent()).toContain("deploy");
    const server = panel.getByTestId("mcp-servers").locator("li", { hasText: "everything" });
    await expect.poll(() => server.getAttribute("data-state"), { timeout: 20_000 }).toBe("ready");
    // The server's tools in the request, each with its size.
    const mcpTools = panel.getByRole("table", { name: "MCP tools", includeHidden: true });
    expect(await mcpTools.textContent()).toMatch(/mcp__everything__\w+[\d.,k]+/);
    const compaction = panel.getByTestId("compaction-summary");
    expect(await compaction.locator("summary").textContent()).toMatch(
      /overflow: \d+ messages dropped/,
    );
    await compaction.locator("summary").click();
    expect(await compaction.textContent()).toContain("Summary: the user asked two questions.");
  });
});

describe("the Context screen's repo map", { timeout: 90_000 }, () => {
  it("shows the repo map's state and size once it is built", async () => {
    const f = await startFixture({
      files: {
        "src/a.ts": "export function alpha() { return 1; }\n",
        "b.ts": "import { alpha } from './src/a';\nexport const b = alpha();\n",
      },
      script: [reply.text("mapped")],
      repoMap: true,
    });
    cleanup.push(() => f.dispose());
    const p = await page();
    await newSession(p, f);
    await send(p, "look");
    await p.getByTestId("turn-end").waitFor();
    await openTab(p, "Context");
    // The panel reads the report when it opens: reopen it until the build is in.
    await expect
      .poll(
        async () => {
          await openTab(p, "Overview");
          await openTab(p, "Context");
          return p.getByTestId("repo-map").textContent();
        },
        { timeout: 30_000 },
      )
      .toMatch(/^(ready|active) · [\d.,k]+ tokens, [1-9]\d* files?, [1-9]\d* definitions?$/);
  });
});

describe("Settings and trust", { timeout: 90_000 }, () => {
  it("shows where each value comes from, edits the rules, and trusts the folder after its report", async () => {
    const f = await startFixture({
      files: {
        ".z-engine/settings.toml":
          '[model]\nmain = "project-model"\n[permissions]\nallow = ["Bash(ls:*)"]\ndeny = ["Bash(rm:*)"]\n',
        "a.txt": "a\n",
      },
      script: [],
    });
    cleanup.push(() => f.dispose());
    const p = await page();
    await newSession(p, f);
    const id = new URL(p.url()).searchParams.get("session") ?? "";
    await p.getByRole("button", { name: "Settings" }).click();
    const settings = p.getByTestId("settings");
    await settings.getByTestId("rules").waitFor();
    const row = (key: string) =>
      settings.getByTestId("effective-settings").locator(`tr[data-key="${key}"]`);
    expect(await row("model.main").textContent()).toContain('"project-model"');
    expect(await row("model.main").textContent()).toContain(f.repo.path(".z-engine/settings.toml"));
    expect(await row("context.compact_at_percent").textContent()).toContain("default");
    // The untrusted project's allow rule is withheld, and the trust report names it.
    const allow = settings.getByTestId("rule").filter({ hasText: "Bash(ls:*)" });
    expect(await allow.textContent()).toContain("withheld until trusted");
    const report = settings.getByTestId("would-apply");
    expect(await report.textContent()).toContain("permissions.allow");
    expect(await report.textContent()).toContain('["Bash(ls:*)"]');

    // Add a rule to settings.local.toml; edit the deny rule in settings.toml; remove it.
    await settings.getByLabel("Rule list").selectOption("deny");
    await settings.getByLabel("New rule").fill("Read(./a.txt)");
    await settings.getByRole("button", { name: "Add rule" }).click();
    await settings.getByTestId("rule").filter({ hasText: "Read(./a.txt)" }).waitFor();
    expect(await readFile(f.repo.path(".z-engine/settings.local.toml"), "utf8")).toContain(
      "Read(./a.txt)",
    );
    const deny = settings.getByTestId("rule").filter({ hasText: "Bash(rm:*)" });
    await deny.getByRole("button", { name: "Edit" }).click();
    await settings.getByLabel("Edit Bash(rm:*)").fill("Bash(rm -rf:*)");
    await settings.getByRole("button", { name: "Save" }).click();
    await settings.getByTestId("rule").filter({ hasText: "Bash(rm -rf:*)" }).waitFor();
    expect(await readFile(f.repo.path(".z-engine/settings.toml"), "utf8")).toContain(
      'deny = ["Bash(rm -rf:*)"]',
    );
    await settings
      .getByTestId("rule")
      .filter({ hasText: "Bash(rm -rf:*)" })
      .getByRole("button", { name: "Remove Bash(rm -rf:*)" })
      .click();
    await expect
      .poll(() => settings.getByTestId("rule").filter({ hasText: "Bash(rm" }).count())
      .toBe(0);
    // A bad rule is refused in words, and nothing is written.
    await settings.getByLabel("New rule").fill("Bash(");
    await settings.getByRole("button", { name: "Add rule" }).click();
    await settings.getByRole("alert").filter({ hasText: "is not a rule" }).waitFor();

    await settings.getByRole("button", { name: "Trust this folder" }).click();
    await settings.getByTestId("trust-section").getByText("is trusted").waitFor();
    await expect.poll(async () => (await allow.textContent()) ?? "").not.toContain("withheld");
    // The new deny rule applies in the session at once.
    await p.goto(`${f.server.url}&session=${id}`);
    f.model.push(reply.toolCall("Read", { file_path: f.repo.path("a.txt") }), reply.text("denied"));
    await send(p, "read a");
    await p.getByTestId("tool").filter({ hasText: "denied" }).waitFor();
  });
});
