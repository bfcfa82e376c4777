import { existsSync } from "node:fs";
import { readdir, readFile, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { ModelRequest, ToolResultBlock } from "@z-engine/protocol";
import { reply, when } from "@z-engine/testkit";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type Harness, harness, resultsOf, waitForCount } from "../harness.js";
import { type HookScripts, hookScripts } from "../hook-scripts.js";

// Several sessions with subagents a test; the shared machine can be slow.
vi.setConfig({ testTimeout: 60_000 });

let h: Harness | undefined;
let hooks: HookScripts | undefined;
afterEach(async () => {
  await h?.dispose();
  await hooks?.dispose();
  h = undefined;
  hooks = undefined;
});

const systemText = (r: ModelRequest) => JSON.stringify(r.system);
/** Requests of the subagent whose system prompt holds `marker`. */
const sub = (marker: string) => (r: ModelRequest) => systemText(r).includes(marker);
/** Requests of the main agent (no subagent marker in the system prompt). */
const main =
  (...markers: string[]) =>
  (r: ModelRequest) =>
    !markers.some((m) => systemText(r).includes(m));
const toolNames = (r: ModelRequest | undefined) => (r?.tools ?? []).map((t) => t.name).sort();
const resultText = (b: ToolResultBlock | undefined) =>
  (b?.content ?? []).map((c) => (c.type === "text" ? c.text : "")).join("");

const REVIEWER = "MARKER-REVIEWER: you review code.";
const BASHER = "MARKER-BASHER: you edit with the shell.";
const reviewerFile = (extra = "") =>
  `---\nname: reviewer\ndescription: Reviews a change\ntools: Read, Grep, Write, AskUserQuestion\n${extra}---\n${REVIEWER}\n`;

const files = { "src/a.ts": "export const a = 1;\n", ".claude/agents/reviewer.md": reviewerFile() };

async function agentLog(hh: Harness, sessionId: string): Promise<string[]> {
  const dir = join(hh.home, "data", "sessions", sessionId, "agents");
  return existsSync(dir) ? readdir(dir) : [];
}

describe("the Agent tool", () => {
  it("runs a foreground agent with its own prompt and filtered tools and returns its report", async () => {
    h = await harness({ files, script: [], overrides: { mode: "acceptEdits" } });
    const isSub = sub(REVIEWER);
    h.model.push(
      when(
        main(REVIEWER),
        reply.toolCall("Agent", {
          description: "Review a",
          prompt: "Review src/a.ts",
          subagent_type: "reviewer",
        }),
      ),
      when(isSub, reply.toolCall("Read", { file_path: h.repo.path("src/a.ts") })),
      when(isSub, reply.text("a.ts looks fine.", { usage: { input: 100, output: 20 } })),
      when(main(REVIEWER), reply.text("The reviewer found nothing.")),
    );
    const summary = await h.session.run("review a.ts with the reviewer");
    expect(summary.outcome).toBe("completed");
    const subRequests = h.model.requests.filter(isSub);
    expect(subRequests).toHaveLength(2);
    // Its definition's tools, without AskUserQuestion (never given to subagents).
    expect(toolNames(subRequests[0])).toEqual(["Grep", "Read", "Write"]);
    // The subagent starts from the prompt alone, not the parent's conversation.
    const firstSub = JSON.stringify(subRequests[0]?.messages);
    expect(firstSub).toContain("Review src/a.ts");
    expect(firstSub).not.toContain("review a.ts with the reviewer");
    const mainRequests = h.model.requests.filter(main(REVIEWER));
    const result = resultText(
      (mainRequests.at(-1)?.messages.at(-1)?.content ?? []).find(
        (b): b is ToolResultBlock => b.type === "toolResult",
      ),
    );
    expect(result).toContain("a.ts looks fine.");
    expect(result).toMatch(/agent agent_\S+ \(reviewer\) completed/);
    expect(result).toContain("100 in / 20 out tokens");
    // Its events carry its agent id; its transcript is agents/<id>.jsonl.
    const agentIds = new Set(h.recorder.envelopes.map((e) => e.agentId).filter(Boolean));
    expect(agentIds.size).toBe(1);
    const [agentId] = [...agentIds];
    expect(await agentLog(h, h.session.id)).toEqual([`${agentId}.jsonl`]);
    const transcript = await readFile(
      join(h.home, "data", "sessions", h.session.id, "agents", `${agentId}.jsonl`),
      "utf8",
    );
    expect(transcript).toContain("a.ts looks fine.");
  });

  it("accepts Task as Claude Code's name for the tool, and reports an unknown type", async () => {
    h = await harness({ files, script: [] });
    h.model.push(
      when(
        main(REVIEWER),
        reply.toolCalls([
          { name: "Task", input: { description: "d", prompt: "p", subagent_type: "reviewer" } },
          { name: "Agent", input: { description: "d", prompt: "p", subagent_type: "nobody" } },
        ]),
      ),
      when(sub(REVIEWER), reply.text("reviewed")),
      when(main(REVIEWER), reply.text("done")),
    );
    expect((await h.session.run("go")).outcome).toBe("completed");
    const results = resultsOf(h, h.model.requests.length - 1);
    expect(resultText(results[0])).toContain("reviewed");
    expect(results[1]?.isError).toBe(true);
    expect(resultText(results[1])).toMatch(/Unknown agent type "nobody".*reviewer/);
  });

  it("labels a subagent's approvals with its agent id; a project agent never runs looser than its caller", async () => {
    h = await harness({
      files: {
        ...files,
        ".claude/agents/reviewer.md": reviewerFile("permissionMode: bypassPermissions\n"),
      },
      script: [],
      overrides: { mode: "ask" },
      approve: () => ({ type: "allowOnce" }),
    });
    h.model.push(
      when(
        main(REVIEWER),
        reply.toolCall("Agent", { description: "d", prompt: "p", subagent_type: "reviewer" }),
      ),
      when(
        sub(REVIEWER),
        reply.toolCall("Write", { file_path: h.repo.path("notes.md"), content: "n" }),
      ),
      when(sub(REVIEWER), reply.text("wrote notes")),
      when(main(REVIEWER), reply.text("done")),
    );
    expect((await h.session.run("go")).outcome).toBe("completed");
    const asks = h.recorder.envelopes.filter((e) => e.event.type === "approvalRequested");
    expect(asks).toHaveLength(1);
    expect(asks[0]?.agentId).toMatch(/^agent_/);
    expect(await h.repo.read("notes.md")).toBe("n");
  });

  it("denies an agent type by an Agent(type) rule", async () => {
    h = await harness({
      files,
      script: [],
      userSettings: '[permissions]\ndeny = ["Agent(reviewer)"]\n',
    });
    h.model.push(
      when(
        main(REVIEWER),
        reply.toolCall("Agent", { description: "d", prompt: "p", subagent_type: "reviewer" }),
      ),
      when(main(REVIEWER), reply.text("ok")),
    );
    await h.session.run("go");
    expect(h.model.requests.filter(sub(REVIEWER))).toHaveLength(0);
    expect(resultsOf(h, 1)[0]?.isError).toBe(true);
  });

  it("stops a foreground agent on interrupt and answers the call as cancelled", async () => {
    h = await harness({ files, script: [] });
    h.model.push(
      when(
        main(REVIEWER),
        reply.toolCall("Agent", { description: "d", prompt: "p", subagent_type: "reviewer" }),
      ),
      when(sub(REVIEWER), reply.fault({ stall: true })),
    );
    const turnId = await h.session.send({ type: "submit", text: "go" });
    await waitForCount(h, "assistantStarted", 2);
    await h.session.send({ type: "interrupt" });
    const summary = await h.session.turnEnd(turnId as never);
    expect(summary.outcome).toBe("cancelled");
  });
});

describe("background agents", () => {
  it("returns a job id at once and reminds the parent when the agent finishes", async () => {
    h = await harness({ files, script: [] });
    h.model.push(
      when(
        main(REVIEWER),
        reply.toolCall("Agent", {
          description: "bg review",
          prompt: "p",
          subagent_type: "reviewer",
          run_in_background: true,
        }),
      ),
      when(main(REVIEWER), reply.text("started it")),
      when(sub(REVIEWER), reply.text("background report")),
    );
    expect((await h.session.run("go")).outcome).toBe("completed");
    const started = resultText(resultsOf(h, 1)[0]);
    const jobId = /job (job_\S+?)[.)]/.exec(started)?.[1];
    expect(jobId).toBeDefined();
    await h.recorder.waitFor("jobUpdated", { job: { status: "completed" } });
    h.model.push(
      when(main(REVIEWER), reply.toolCall("JobOutput", { job_id: jobId })),
      when(main(REVIEWER), reply.text("read it")),
    );
    await h.session.run("what did it find?");
    const requests = h.model.requests.filter(main(REVIEWER));
    const reminded = JSON.stringify(requests.at(-2)?.messages.at(-1));
    expect(reminded).toContain(`Background agent job ${jobId}`);
    expect(resultText(resultsOf(h, h.model.requests.length - 1)[0])).toContain("background report");
  });
});

describe("SubagentStop hooks", () => {
  it("continue a subagent with their reason; stop_hook_active is true on the second call", async () => {
    hooks = await hookScripts([
      {
        event: "SubagentStop",
        body: 'cat >> "$HOOK_DIR/stop.jsonl"; echo >> "$HOOK_DIR/stop.jsonl"\nif [ "$(wc -l < "$HOOK_DIR/stop.jsonl")" -lt 2 ]; then echo "check the tests too" >&2; exit 2; fi',
      },
    ]);
    h = await harness({ files, script: [], userSettings: hooks.toml, trusted: true });
    h.model.push(
      when(
        main(REVIEWER),
        reply.toolCall("Agent", { description: "d", prompt: "p", subagent_type: "reviewer" }),
      ),
      when(sub(REVIEWER), reply.text("first answer")),
      when(sub(REVIEWER), reply.text("second answer, tests checked")),
      when(main(REVIEWER), reply.text("done")),
    );
    expect((await h.session.run("go")).outcome).toBe("completed");
    const subs = h.model.requests.filter(sub(REVIEWER));
    expect(subs).toHaveLength(2);
    expect(JSON.stringify(subs[1]?.messages.at(-1))).toContain("check the tests too");
    const inputs = (await hooks.read("stop.jsonl"))
      .split("\n")
      .filter((l) => l.trim() !== "")
      .map((l) => JSON.parse(l));
    expect(inputs.map((i) => [i.hook_event_name, i.stop_hook_active])).toEqual([
      ["SubagentStop", false],
      ["SubagentStop", true],
    ]);
    // As Claude Code sends it: the subagent's own transcript, a file that holds its messages.
    const path = inputs[0]?.agent_transcript_path as string;
    expect(path).toBe(
      join(dirname(inputs[0]?.transcript_path), "agents", `${inputs[0]?.agent_id}.jsonl`),
    );
    expect(await readFile(path, "utf8")).toContain("first answer");
    expect(resultText(resultsOf(h, h.model.requests.length - 1)[0])).toContain(
      "second answer, tests checked",
    );
  });
});

describe("SubagentStop hooks, at the limit", () => {
  it("continue a subagent at most 5 times, then it stops with its last report", async () => {
    hooks = await hookScripts([
      {
        event: "SubagentStop",
        // Claude Code's JSON form of a block this time (the test above uses exit 2).
        body: 'cat >> "$HOOK_DIR/stop.jsonl"; echo >> "$HOOK_DIR/stop.jsonl"\necho \'{"decision":"block","reason":"keep going"}\'',
      },
    ]);
    h = await harness({ files, script: [], userSettings: hooks.toml, trusted: true });
    h.model.push(
      when(
        main(REVIEWER),
        reply.toolCall("Agent", { description: "d", prompt: "p", subagent_type: "reviewer" }),
      ),
      ...[1, 2, 3, 4, 5, 6, 7].map((n) => when(sub(REVIEWER), reply.text(`answer ${n}`))),
      when(main(REVIEWER), reply.text("done")),
    );
    expect((await h.session.run("go")).outcome).toBe("completed");
    const subs = h.model.requests.filter(sub(REVIEWER));
    // The first answer, then one per continuation: 5 continuations, 6 requests.
    expect(subs).toHaveLength(6);
    for (const request of subs.slice(1))
      expect(JSON.stringify(request.messages.at(-1))).toContain("keep going");
    const inputs = (await hooks.read("stop.jsonl"))
      .split("\n")
      .filter((l) => l.trim() !== "")
      .map((l) => JSON.parse(l));
    expect(inputs.map((i) => [i.hook_event_name, i.stop_hook_active])).toEqual([
      ["SubagentStop", false],
      ["SubagentStop", true],
      ["SubagentStop", true],
      ["SubagentStop", true],
      ["SubagentStop", true],
    ]);
    // Each call names the subagent (Claude Code's agent_id), the same one throughout.
    expect(new Set(inputs.map((i) => `${i.agent_id} ${i.agent_type}`)).size).toBe(1);
    expect(inputs[0]?.agent_id).toMatch(/^agent_/);
    expect(inputs[0]?.agent_type).toBe("reviewer");
    const result = resultText(resultsOf(h, h.model.requests.length - 1)[0]);
    expect(result).toContain("answer 6");
    expect(result).toMatch(/\(reviewer\) completed/);
  });
});

describe("worktree agents", () => {
  it("run in their own worktree; ApplyAgentChanges merges the change into the project", async () => {
    h = await harness({
      files: {
        ...files,
        ".claude/agents/reviewer-bash.md": `---\nname: reviewer-bash\ndescription: Edits with the shell\ntools: Bash\n---\n${BASHER}\n`,
      },
      script: [],
      overrides: { mode: "bypass" },
    });
    h.model.push(
      when(
        main(BASHER),
        reply.toolCall("Agent", {
          description: "d",
          prompt: "set a to 2",
          subagent_type: "reviewer-bash",
          isolation: "worktree",
        }),
      ),
      when(
        sub(BASHER),
        reply.toolCall("Bash", { command: "printf 'export const a = 2;\\n' > src/a.ts" }),
      ),
      when(sub(BASHER), reply.text("a is 2 now")),
      when(main(BASHER), reply.text("it has changes to apply")),
    );
    expect((await h.session.run("change a in a worktree")).outcome).toBe("completed");
    const result = resultText(resultsOf(h, h.model.requests.length - 1)[0]);
    expect(result).toContain("a is 2 now");
    expect(result).toContain("- src/a.ts (modified, +1 -1)");
    const agentId = /agent_id (agent_\S+?)\)/.exec(result)?.[1] ?? "";
    expect(agentId).not.toBe("");
    // The project itself is untouched until the parent applies the change.
    expect(await h.repo.read("src/a.ts")).toBe("export const a = 1;\n");
    h.model.push(
      when(main(BASHER), reply.toolCall("ApplyAgentChanges", { agent_id: agentId })),
      when(main(BASHER), reply.text("applied")),
    );
    expect((await h.session.run("apply it")).outcome).toBe("completed");
    expect(resultText(resultsOf(h, h.model.requests.length - 1)[0])).toContain(
      "Applied the changes",
    );
    expect(await h.repo.read("src/a.ts")).toBe("export const a = 2;\n");
    expect(existsSync(h.repo.path(`.z-engine/worktrees/${agentId}`))).toBe(false);
  });

  it("gives a clear error result in a project that is not a git repository", async () => {
    h = await harness({ files, script: [] });
    await rm(h.repo.path(".git"), { recursive: true, force: true });
    h.model.push(
      when(
        main(REVIEWER),
        reply.toolCall("Agent", {
          description: "d",
          prompt: "p",
          subagent_type: "reviewer",
          isolation: "worktree",
        }),
      ),
      when(main(REVIEWER), reply.text("no worktree then")),
    );
    await h.session.run("go");
    const result = resultsOf(h, 1)[0];
    expect(result?.isError).toBe(true);
    expect(resultText(result)).toContain("not in a git repository");
    expect(h.model.requests.filter(sub(REVIEWER))).toHaveLength(0);
  });
});
