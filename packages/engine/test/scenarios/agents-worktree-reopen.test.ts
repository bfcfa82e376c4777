import { existsSync } from "node:fs";
import type { ModelRequest, ToolResultBlock } from "@z-engine/protocol";
import { reply, when } from "@z-engine/testkit";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type Harness, harness, resultsOf } from "../harness.js";

vi.setConfig({ testTimeout: 60_000 });

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

const BASHER = "MARKER-BASHER: you edit with the shell.";
const sub = (r: ModelRequest) => JSON.stringify(r.system).includes(BASHER);
const main = (r: ModelRequest) => !sub(r);
const resultText = (b: ToolResultBlock | undefined) =>
  (b?.content ?? []).map((c) => (c.type === "text" ? c.text : "")).join("");
const lastResult = (x: Harness) => resultsOf(x, x.model.requests.length - 1)[0];

const files = {
  "src/a.ts": "export const a = 1;\n",
  ".claude/agents/basher.md": `---\nname: basher\ndescription: Edits with the shell\ntools: Bash\n---\n${BASHER}\n`,
};

/** Runs a worktree agent that sets `a` to 2 and returns its id; the project is untouched. */
async function worktreeAgent(x: Harness): Promise<string> {
  x.model.push(
    when(
      main,
      reply.toolCall("Agent", {
        description: "d",
        prompt: "set a to 2",
        subagent_type: "basher",
        isolation: "worktree",
      }),
    ),
    when(sub, reply.toolCall("Bash", { command: "printf 'export const a = 2;\\n' > src/a.ts" })),
    when(sub, reply.text("a is 2 now")),
    when(main, reply.text("it has changes to apply")),
  );
  expect((await x.session.run("change a in a worktree")).outcome).toBe("completed");
  const result = resultText(lastResult(x));
  expect(result).toContain("- src/a.ts (modified, +1 -1)");
  const agentId = /agent_id (agent_\S+?)\)/.exec(result)?.[1] ?? "";
  expect(agentId).not.toBe("");
  expect(await x.repo.read("src/a.ts")).toBe("export const a = 1;\n");
  return agentId;
}

describe("a worktree agent's pending changes", () => {
  it("survive closing and reopening the session: ApplyAgentChanges still applies them", async () => {
    h = await harness({ files, script: [], overrides: { mode: "bypass" } });
    const agentId = await worktreeAgent(h);
    await h.session.close();
    expect(existsSync(h.repo.path(`.z-engine/worktrees/${agentId}`))).toBe(true);

    const reopened = await h.engine.openSession(h.session.id, { mode: "bypass" });
    h.model.push(
      when(main, reply.toolCall("ApplyAgentChanges", { agent_id: agentId })),
      when(main, reply.text("applied")),
    );
    expect((await reopened.run("apply it")).outcome).toBe("completed");
    const result = lastResult(h);
    expect(result?.isError).toBe(false);
    expect(resultText(result)).toContain(
      `Applied the changes of agent ${agentId}:\n- src/a.ts (modified)`,
    );
    expect(await h.repo.read("src/a.ts")).toBe("export const a = 2;\n");
    expect(existsSync(h.repo.path(`.z-engine/worktrees/${agentId}`))).toBe(false);
    expect(existsSync(h.repo.path(`.z-engine/worktrees/${agentId}.json`))).toBe(false);
    // Applied once: a second call finds nothing waiting.
    h.model.push(
      when(main, reply.toolCall("ApplyAgentChanges", { agent_id: agentId })),
      when(main, reply.text("nothing")),
    );
    await reopened.run("again");
    expect(resultText(lastResult(h))).toContain(
      `No worktree agent ${agentId} has changes waiting.`,
    );
    await reopened.close();
  });

  it("belong to their session: another session cannot apply them; the reopened one discards them", async () => {
    h = await harness({ files, script: [], overrides: { mode: "bypass" } });
    const agentId = await worktreeAgent(h);
    await h.session.close();

    const other = await h.engine.createSession(h.repo.root, { mode: "bypass" });
    h.model.push(
      when(main, reply.toolCall("ApplyAgentChanges", { agent_id: agentId })),
      when(main, reply.text("not mine")),
    );
    await other.run("apply the other session's agent");
    expect(lastResult(h)?.isError).toBe(true);
    expect(resultText(lastResult(h))).toContain(
      `No worktree agent ${agentId} has changes waiting.`,
    );
    expect(await h.repo.read("src/a.ts")).toBe("export const a = 1;\n");
    await other.close();

    const reopened = await h.engine.openSession(h.session.id, { mode: "bypass" });
    h.model.push(
      when(main, reply.toolCall("ApplyAgentChanges", { agent_id: agentId, discard: true })),
      when(main, reply.text("discarded")),
    );
    await reopened.run("drop it");
    expect(resultText(lastResult(h))).toContain("Its changes were discarded");
    expect(await h.repo.read("src/a.ts")).toBe("export const a = 1;\n");
    expect(existsSync(h.repo.path(`.z-engine/worktrees/${agentId}`))).toBe(false);
    await reopened.close();
  });

  it("a worktree agent resumed after a reopen goes on in its worktree", async () => {
    h = await harness({ files, script: [], overrides: { mode: "bypass" } });
    const agentId = await worktreeAgent(h);
    await h.session.close();
    const reopened = await h.engine.openSession(h.session.id, { mode: "bypass" });
    h.model.push(
      when(
        main,
        reply.toolCall("Agent", {
          description: "more",
          prompt: "add b",
          subagent_type: "basher",
          resume: agentId,
        }),
      ),
      when(sub, reply.toolCall("Bash", { command: "printf 'export const b = 3;\\n' > src/b.ts" })),
      when(sub, reply.text("b added")),
      when(main, reply.text("more changes")),
      when(main, reply.toolCall("ApplyAgentChanges", { agent_id: agentId })),
      when(main, reply.text("applied")),
    );
    await reopened.run("add b too");
    expect(existsSync(h.repo.path("src/b.ts"))).toBe(false);
    const summary = resultText(lastResult(h));
    expect(summary).toContain("- src/a.ts (modified, +1 -1)");
    expect(summary).toContain("- src/b.ts (added, +1 -0)");
    await reopened.run("apply");
    expect(await h.repo.read("src/a.ts")).toBe("export const a = 2;\n");
    expect(await h.repo.read("src/b.ts")).toBe("export const b = 3;\n");
    await reopened.close();
  });

  it("once applied, a resumed worktree agent goes on in a new worktree", async () => {
    h = await harness({ files, script: [], overrides: { mode: "bypass" } });
    const agentId = await worktreeAgent(h);
    h.model.push(
      when(main, reply.toolCall("ApplyAgentChanges", { agent_id: agentId })),
      when(main, reply.text("applied")),
      when(
        main,
        reply.toolCall("Agent", {
          description: "more",
          prompt: "add b",
          subagent_type: "basher",
          resume: agentId,
        }),
      ),
      when(sub, reply.toolCall("Bash", { command: "printf 'export const b = 3;\\n' > src/b.ts" })),
      when(sub, reply.text("b added")),
      when(main, reply.text("more changes")),
    );
    await h.session.run("apply");
    expect(await h.repo.read("src/a.ts")).toBe("export const a = 2;\n");
    await h.session.run("add b");
    const summary = resultText(lastResult(h));
    expect(summary).toContain("b added");
    expect(summary).toContain("- src/b.ts (added, +1 -0)");
    expect(summary).not.toContain("src/a.ts");
    expect(existsSync(h.repo.path("src/b.ts"))).toBe(false);
    expect(existsSync(h.repo.path(`.z-engine/worktrees/${agentId}/src/b.ts`))).toBe(true);
  });
});
