import { existsSync } from "node:fs";
import { readdir, readFile, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import type {
  ModelClient,
  ModelEvent,
  ModelRequest,
  StreamOptions,
  ToolResultBlock,
} from "@z-engine/protocol";
import { reply, ScriptedModel, type ScriptReply, when } from "@z-engine/testkit";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type Harness, harness, resultsOf, waitForCount } from "../harness.js";
import { plantGitPrograms } from "../hostile-git.js";

// Issue 38, items 2, 3, 4, 11 and 16: a worktree agent, run through the real engine with real
// git and bubblewrap, in a project that is hostile to the engine's own git and file writes.

vi.setConfig({ testTimeout: 60_000 });

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

const BASHER = "MARKER-BASHER: you edit files for the parent.";
const systemText = (r: ModelRequest) => r.system.map((s) => s.text).join("\n");
const sub = (r: ModelRequest) => systemText(r).includes(BASHER);
const main = (r: ModelRequest) => !sub(r);
const text = (b: ToolResultBlock | undefined) =>
  (b?.content ?? []).map((c) => (c.type === "text" ? c.text : "")).join("");
/** The text of every tool result the model has been sent so far. */
const allResults = (x: Harness) => x.model.requests.flatMap((_, i) => resultsOf(x, i)).map(text);
const SANDBOX = "[shell.sandbox]\nenabled = true\nauto_allow = true\n";

const files = {
  "src/a.ts": "export const a = 1;\n",
  ".claude/agents/basher.md": `---\nname: basher\ndescription: Edits files\ntools: Bash, Write, Read, Verify\n---\n${BASHER}\n`,
};

const startAgent = (prompt = "do the work") =>
  when(
    main,
    reply.toolCall("Agent", {
      description: "d",
      prompt,
      subagent_type: "basher",
      isolation: "worktree",
    }),
  );
const agentIdIn = (x: Harness) => {
  const found = allResults(x)
    .map((t) => /\bagent (agent_[0-9a-z]+) \(/.exec(t)?.[1])
    .find((id) => id !== undefined);
  if (!found) throw new Error(`no agent id in ${JSON.stringify(allResults(x))}`);
  return found;
};

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

/**
 * A model that does what a real one does with the environment section: it reads the
 * `Working directory:` of the request it gets and writes `<that dir>/src/a.ts`.
 */
class ReadsItsEnvironment implements ModelClient {
  readonly seen: string[] = [];
  private round = 0;
  constructor(private readonly main: ScriptedModel) {}

  stream(request: ModelRequest, options?: StreamOptions): AsyncIterable<ModelEvent> {
    if (!sub(request)) return this.main.stream(request, options);
    const dir = /^Working directory: (.+)$/m.exec(systemText(request))?.[1] ?? "(none)";
    this.seen.push(dir);
    const file = join(dir, "src/a.ts");
    const answers: ScriptReply[] = [
      reply.toolCall("Read", { file_path: file }),
      reply.toolCall("Write", { file_path: file, content: "export const a = 2;\n" }),
      reply.text("written"),
    ];
    const answer = answers[this.round++] ?? reply.text("done");
    return new ScriptedModel([answer]).stream(request, options);
  }
}

describe("a worktree agent is told, and allowed, only its worktree (item 11)", () => {
  it("a model using the environment section's absolute paths edits the worktree, not the project", async () => {
    const scripted = new ScriptedModel([]);
    const model = new ReadsItsEnvironment(scripted);
    const fast = new ScriptedModel([reply.text("title")]);
    h = await harness({
      files,
      script: [],
      overrides: { mode: "bypass" },
      engine: { clientFactory: ({ role }) => (role === "fast" ? fast : model) },
    });
    scripted.push(startAgent("set a to 2"), when(main, reply.text("ok")));
    await h.session.run("change a");
    const seenBy = scriptedHarness(h, scripted);
    const agentId = agentIdIn(seenBy);
    const result = allResults(seenBy).join("\n");
    const worktree = h.repo.path(`.z-engine/worktrees/${agentId}`);
    expect(model.seen[0]).toBe(worktree);
    expect(await h.repo.read("src/a.ts")).toBe("export const a = 1;\n");
    expect(await readFile(join(worktree, "src/a.ts"), "utf8")).toBe("export const a = 2;\n");
    expect(result).toContain("- src/a.ts (modified, +1 -1)");
  });

  it("its sandbox writes only its worktree and auto-allows nothing in the project", async () => {
    h = await harness({
      files,
      script: [],
      userSettings: SANDBOX,
      approve: () => ({ type: "allowOnce" }),
      // Outside the temporary folder, which every sandbox keeps writable.
      projectParent: relative(tmpdir(), "/var/tmp"),
    });
    const target = h.repo.path("src/a.ts");
    h.model.push(
      startAgent(`write ${target}`),
      when(
        sub,
        reply.toolCalls([
          { name: "Bash", input: { command: "pwd" } },
          { name: "Bash", input: { command: `printf 'export const a = 9;\\n' > ${target}` } },
        ]),
      ),
      when(sub, reply.text("tried")),
      when(main, reply.text("ok")),
    );
    await h.session.run("go");
    expect(await h.repo.read("src/a.ts")).toBe("export const a = 1;\n");
    const agentId = agentIdIn(h);
    const subResults = h.model.requests.flatMap((r, i) =>
      sub(r) ? resultsOf(h as Harness, i).map(text) : [],
    );
    expect(subResults[0]).toContain(h.repo.path(`.z-engine/worktrees/${agentId}`));
    // Writing the project was asked (not auto-allowed), and the sandbox refused it anyway.
    const asked = h.recorder.ofType("approvalRequested").map((e) => e.title);
    expect(asked.some((t) => t.includes(target))).toBe(true);
    expect(subResults[1]).toMatch(/read-only file system/i);
  });
});

describe("a worktree agent's background shells and checks (item 11)", () => {
  it("run in its sandbox and its worktree, not the project", async () => {
    const test = `node -e "require('fs').writeFileSync('ran-in.txt', process.cwd())"`;
    h = await harness({
      files: { ...files, "package.json": JSON.stringify({ scripts: { test } }) },
      script: [],
      userSettings: SANDBOX,
      overrides: { mode: "bypass" },
      projectParent: relative(tmpdir(), "/var/tmp"),
    });
    const target = h.repo.path("src/bg.ts");
    h.model.push(
      startAgent(`write ${target} in the background, then run the tests`),
      when(
        sub,
        reply.toolCalls([
          { name: "Bash", input: { command: `echo x > ${target}`, run_in_background: true } },
          { name: "Verify", input: { checks: ["npm:test"] } },
        ]),
      ),
      when(sub, reply.text("done")),
      when(main, reply.text("ok")),
    );
    await h.session.run("go");
    // The job's start, then its end.
    await waitForCount(h, "jobUpdated", 2);
    expect(existsSync(target)).toBe(false);
    expect(h.recorder.ofType("jobUpdated").at(-1)?.job.status).toBe("failed");
    const agentId = agentIdIn(h);
    const worktree = h.repo.path(`.z-engine/worktrees/${agentId}`);
    expect(await readFile(join(worktree, "ran-in.txt"), "utf8")).toBe(worktree);
    expect(existsSync(h.repo.path("ran-in.txt"))).toBe(false);
    // The check proves the worktree, not the project: it is not the session's evidence.
    const recorded = h.recorder.envelopes.filter((e) => e.event.type === "checkRecorded");
    expect(recorded.length).toBe(1);
    expect(recorded[0]?.agentId).toBe(agentId);
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

/** The harness, read through another scripted model's requests. */
function scriptedHarness(x: Harness, model: ScriptedModel): Harness {
  return { ...x, model };
}
