import { existsSync } from "node:fs";
import { readdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { reply, when } from "@z-engine/testkit";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type Harness, harness, resultsOf } from "../harness.js";
import { plantGitPrograms } from "../hostile-git.js";
import {
  agentIdIn,
  allResults,
  files,
  main,
  SANDBOX,
  startAgent,
  sub,
  text,
} from "../worktree-agents.js";

// Issue 38, items 2, 3, 4 and 16: a worktree agent, run through the real engine with real git
// and bubblewrap, in a project that is hostile to the engine's own git and file writes.

vi.setConfig({ testTimeout: 60_000 });

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

describe("a worktree agent in a project whose git config names programs (item 2)", () => {
  it("creates, commits, summarises and applies without running any of them", async () => {
    h = await harness({
      files: { ...files, ".gitattributes": "* filter=evil diff=evil\nsrc/* filter=proc\n" },
      script: [],
      overrides: { mode: "bypass" },
    });
    const planted = await plantGitPrograms(h.repo, join(h.home, "markers"));
    h.model.push(
      startAgent(),
      when(sub, reply.toolCall("Bash", { command: "printf 'export const a = 2;\\n' > src/a.ts" })),
      when(sub, reply.text("a is 2")),
      when(main, reply.text("ready to apply")),
    );
    expect((await h.session.run("change a")).outcome).toBe("completed");
    expect(await planted.ran()).toEqual([]);
    const agentId = agentIdIn(h);
    expect(allResults(h).join("\n")).toContain("- src/a.ts (modified, +1 -1)");
    h.model.push(
      when(main, reply.toolCall("ApplyAgentChanges", { agent_id: agentId })),
      when(main, reply.text("applied")),
    );
    await h.session.run("apply");
    expect(await h.repo.read("src/a.ts")).toBe("export const a = 2;\n");
    expect(await planted.ran()).toEqual([]);
    // The plants are live: plain git in the project runs them.
    await writeFile(h.repo.path("live.txt"), "live\n");
    await h.repo.git("add", "live.txt").catch(() => "");
    expect(await planted.ran()).toEqual(expect.arrayContaining(["ran-clean"]));
  });
});

describe("ApplyAgentChanges and symbolic links the project committed (item 3)", () => {
  it("refuses to write through `notes.txt -> ~/.bashrc` (acceptEdits, sandbox auto-allow)", async () => {
    h = await harness({
      files,
      script: [],
      userSettings: SANDBOX,
      overrides: { mode: "acceptEdits" },
      approve: () => ({ type: "allowOnce" }),
    });
    const bashrc = join(h.home, ".bashrc");
    await writeFile(bashrc, "# the user's shell setup\n");
    await symlink(bashrc, h.repo.path("notes.txt"));
    await h.repo.commit("notes");
    h.model.push(
      startAgent(),
      when(
        sub,
        reply.toolCall("Bash", { command: "rm notes.txt && printf 'pwned\\n' > notes.txt" }),
      ),
      when(sub, reply.text("notes rewritten")),
      when(main, reply.text("ready")),
    );
    await h.session.run("rewrite the notes");
    const agentId = agentIdIn(h);
    h.model.push(
      when(main, reply.toolCall("ApplyAgentChanges", { agent_id: agentId })),
      when(main, reply.text("done")),
    );
    await h.session.run("apply");
    expect(await readFile(bashrc, "utf8")).toBe("# the user's shell setup\n");
    // The gate saw where the write would land (outside the project), so it asked.
    const asked = h.recorder.ofType("approvalRequested").map((e) => e.toolName);
    expect(asked).toContain("ApplyAgentChanges");
    const result = resultsOf(h, h.model.requests.length - 1)[0];
    expect(result?.isError).toBe(true);
    expect(text(result)).toContain("notes.txt");
    expect(text(result)).toMatch(/refused/i);
  });
});

describe("a worktree's .git file (item 4)", () => {
  it("cannot be repointed by a sandboxed command at a planted git dir whose filter the engine would run", async () => {
    h = await harness({
      files,
      script: [],
      userSettings: SANDBOX,
      overrides: { mode: "bypass" },
    });
    const planted = await plantGitPrograms(h.repo, join(h.home, "markers"));
    // Only the plant's config is used: the project's own plants are taken out again.
    await h.repo.git("config", "--unset", "include.path");
    const plantGitDir = [
      "mkdir -p planted/objects planted/refs",
      "printf 'ref: refs/heads/main\\n' > planted/HEAD",
      `printf '[core]\\n\\tbare = false\\n[filter "evil"]\\n\\tclean = ${planted.evil} clean\\n' > planted/config`,
      "printf '* filter=evil\\n' > .gitattributes",
      `printf 'gitdir: %s/planted\\n' "$PWD" > .git`,
    ].join(" && ");
    h.model.push(
      startAgent(),
      when(sub, reply.toolCall("Bash", { command: plantGitDir })),
      when(sub, reply.text("planted")),
      when(main, reply.text("done")),
    );
    await h.session.run("go");
    expect(await planted.ran()).toEqual([]);
  });
});

describe("worktree descriptors (item 16)", () => {
  it("none is kept in the project, and one planted there cannot make a discard delete the user's branch", async () => {
    h = await harness({ files, script: [], overrides: { mode: "bypass" } });
    await h.repo.git("branch", "feature");
    h.model.push(
      startAgent(),
      when(sub, reply.toolCall("Bash", { command: "printf 'export const a = 2;\\n' > src/a.ts" })),
      when(sub, reply.text("a is 2")),
      when(main, reply.text("ok")),
    );
    await h.session.run("change a");
    const agentId = agentIdIn(h);
    const folder = h.repo.path(".z-engine/worktrees");
    expect((await readdir(folder)).filter((n) => n.endsWith(".json"))).toEqual([]);
    expect(await h.repo.git("branch", "--list", "z-engine/*")).toBe("");
    await h.session.close();
    // The project (a clone, say) plants a descriptor naming the user's branch.
    const planted = {
      v: 2,
      worktree: {
        name: agentId,
        repoRoot: h.repo.root,
        path: join(folder, agentId),
        root: join(folder, agentId),
        branch: "feature",
        base: (await h.repo.git("rev-parse", "HEAD")).trim(),
      },
    };
    await writeFile(join(folder, `${agentId}.json`), JSON.stringify(planted));
    const reopened = await h.engine.openSession(h.session.id, { mode: "bypass" });
    h.model.push(
      when(main, reply.toolCall("ApplyAgentChanges", { agent_id: agentId, discard: true })),
      when(main, reply.text("discarded")),
    );
    await reopened.run("drop it");
    expect(text(resultsOf(h, h.model.requests.length - 1)[0])).toContain(
      "Its changes were discarded",
    );
    expect(await h.repo.git("branch", "--list", "feature")).toContain("feature");
    expect(existsSync(join(folder, agentId))).toBe(false);
    await reopened.close();
  });
});
