import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { instructionFiles, reloadInstructions } from "@z-engine/engine";
import { reply } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { type Harness, harness } from "../harness.js";

let h: Harness | undefined;
let outside: string | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
  if (outside) await rm(outside, { recursive: true, force: true });
  outside = undefined;
});

const systemOf = (x: Harness, request: number) =>
  (x.model.requests[request]?.system ?? []).map((s) => s.text).join("\n");

describe("the session's instruction files (/memory)", () => {
  it("lists every file discovery reads, which are there, and a link out of the project as refused", async () => {
    outside = await mkdtemp(join(tmpdir(), "zeng-outside-"));
    const secret = join(outside, "secret.md");
    await writeFile(secret, "not the project's");
    h = await harness({
      files: { "CLAUDE.md": "claude", ".claude/CLAUDE.md": "dot claude" },
      script: [],
      prepare: async (repo, home) => {
        await mkdir(join(home, ".claude"), { recursive: true });
        await writeFile(join(home, ".claude", "CLAUDE.md"), "user claude");
        await symlink(secret, repo.path("CLAUDE.local.md"));
      },
    });
    const { files, newProjectFile } = await instructionFiles(h.session);
    const there = files.filter((f) => f.exists && !f.refused).map((f) => [f.kind, f.path]);
    expect(there).toEqual([
      ["user", join(h.home, ".claude", "CLAUDE.md")],
      ["project", h.repo.path("CLAUDE.md")],
      ["project", h.repo.path(".claude/CLAUDE.md")],
    ]);
    const local = files.find((f) => f.path === h?.repo.path("CLAUDE.local.md"));
    expect(local?.exists).toBe(true);
    expect(local?.refused).toBeDefined();
    expect(files.find((f) => f.path === h?.repo.path("AGENTS.md"))?.exists).toBe(false);
    expect(newProjectFile).toBeUndefined();
    // The engine's own /memory lists the same files.
    const ran = await h.session.command("memory");
    const text = ran.type === "output" ? ran.markdown : "";
    expect(text).toContain(`- user: ${join(h.home, ".claude", "CLAUDE.md")}\n`);
    expect(text).toContain(`- project: ${h.repo.path(".claude/CLAUDE.md")}\n`);
    expect(text).toContain(`- local: ${h.repo.path("CLAUDE.local.md")} (not read: `);
  });

  it("offers the project's AGENTS.md to create when the project has no file of its own", async () => {
    h = await harness({ files: { "src/a.ts": "" }, script: [] });
    const { files, newProjectFile } = await instructionFiles(h.session);
    expect(files.some((f) => f.exists)).toBe(false);
    expect(newProjectFile).toBe(h.repo.path("AGENTS.md"));
  });

  it("re-reads the instructions at the next turn once told they changed", async () => {
    h = await harness({
      files: { "AGENTS.md": "Use tabs." },
      script: [reply.text("one"), reply.text("two"), reply.text("three")],
    });
    await h.session.run("first");
    await writeFile(h.repo.path("AGENTS.md"), "Use tabs.\nEdited in an editor.\n");
    await h.session.run("second");
    expect(systemOf(h, 1)).not.toContain("Edited in an editor.");
    reloadInstructions(h.session);
    await h.session.run("third");
    expect(systemOf(h, 2)).toContain("Edited in an editor.");
    expect(h.recorder.types()).not.toContain("commandOutput");
  });
});
