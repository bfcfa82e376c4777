import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import type { ModelClient, ModelEvent, ModelRequest, StreamOptions } from "@z-engine/protocol";
import { reply, ScriptedModel, type ScriptReply, when } from "@z-engine/testkit";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type Harness, harness, resultsOf, waitForCount } from "../harness.js";
import {
  agentIdIn,
  allResults,
  files,
  main,
  SANDBOX,
  startAgent,
  sub,
  systemText,
  text,
} from "../worktree-agents.js";

// Issue 38, item 11: a worktree agent is told, and allowed, only its worktree: its environment
// section, tools' root, shell, sandbox, auto-allow, background shells and checks. Real
// bubblewrap; the model reads the environment section of the request it gets, as a real one.

vi.setConfig({ testTimeout: 60_000 });

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
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

/** The harness, read through another scripted model's requests. */
function scriptedHarness(x: Harness, model: ScriptedModel): Harness {
  return { ...x, model };
}
