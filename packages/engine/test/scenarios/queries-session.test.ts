import { spawnSync } from "node:child_process";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { resolvePaths } from "@z-engine/config";
import {
  agentHistory,
  checkProviderKey,
  contextReport,
  currentBadge,
  editPermissionRule,
  jobOutput,
  modelChoices,
  sessionAgentList,
  sessionStatus,
  settingsReport,
  trustReport,
} from "@z-engine/engine";
import type { ModelRequest } from "@z-engine/protocol";
import { reply, when } from "@z-engine/testkit";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type Harness, harness } from "../harness.js";

// The queries behind the web UI's header, Context, Settings and Agents screens.

vi.setConfig({ testTimeout: 60_000 });

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

describe("sessionStatus and currentBadge", () => {
  it("names the branch, the model, the mode and the context, and re-reads the badge after a rewind", async () => {
    h = await harness({
      files: {
        "package.json": JSON.stringify({
          name: "x",
          version: "1.0.0",
          scripts: { test: "node -e 0" },
        }),
        "a.txt": "a\n",
      },
      script: [],
      overrides: { mode: "bypass" },
    });
    const status = await sessionStatus(h.session);
    expect(status.branch).toMatch(/^(main|master)$/);
    expect(status).toMatchObject({ mode: "bypass", busy: false, turnCount: 0, lastBadge: null });
    expect(status.context.window).toBeGreaterThan(status.context.used);
    expect(status.context.used).toBeGreaterThan(0);
    h.model.push(
      reply.toolCall("Bash", { command: "echo b > b.txt" }),
      reply.toolCall("Verify", { checks: ["npm:test"] }),
      reply.text("verified"),
    );
    const turn = await h.session.run("add b");
    expect(turn.badge.status).toBe("verified");
    expect((await sessionStatus(h.session)).lastBadge?.status).toBe("verified");
    expect((await currentBadge(h.session, { filesChanged: true })).status).toBe("verified");
    // Rewind the code: the files no longer match the passing run.
    const started = h.recorder.ofType("turnStarted")[0];
    h.session.send({ type: "rewind", messageId: started?.userMessageId as never, restore: "code" });
    await h.session.idle();
    const after = await currentBadge(h.session, { filesChanged: true });
    expect(after.status).toBe("unverified");
    expect((await currentBadge(h.session, { filesChanged: false })).status).toBe("notApplicable");
  });
});

describe("contextReport", () => {
  it("reads no branch from a HEAD that is a FIFO, and does not hang on it", {
    timeout: 20_000,
  }, async () => {
    h = await harness({ files: { "a.txt": "a\n" }, script: [] });
    // The project's .git becomes a file naming a folder whose HEAD is a named pipe: opening
    // it for reading blocks until a writer comes, unless it is opened non-blocking.
    const root = h.repo.root;
    await rename(join(root, ".git"), join(root, "real-git"));
    await mkdir(join(root, "planted"));
    const made = spawnSync("mkfifo", [join(root, "planted", "HEAD")]);
    expect(made.status).toBe(0);
    await writeFile(join(root, ".git"), `gitdir: ${join(root, "planted")}\n`);
    expect((await sessionStatus(h.session)).branch).toBeNull();
    await rm(join(root, ".git"));
    await rename(join(root, "real-git"), join(root, ".git"));
  });

  it("lists system sections, instruction files, skills, tools, the conversation and compactions", async () => {
    h = await harness({
      files: {
        "AGENTS.md": "Always answer in haiku.\n",
        ".claude/skills/deploy/SKILL.md":
          "---\nname: deploy\ndescription: Deploys the app\n---\nRun deploy.\n",
        "a.txt": "a\n",
      },
      script: [reply.text("hello")],
    });
    await h.session.run("hi");
    const report = await contextReport(h.session);
    expect(report.sections.map((s) => s.id)).toEqual(expect.arrayContaining(["instructions"]));
    expect(report.instructionFiles.map((f) => f.id)).toEqual([h.repo.path("AGENTS.md")]);
    expect(report.skills.map((s) => s.name)).toEqual(["deploy"]);
    expect(report.tools.map((t) => t.id)).toEqual(expect.arrayContaining(["Read", "Bash"]));
    expect(report.messages.count).toBe(2);
    expect(report.compactions).toEqual([]);
    expect(report.usage.used).toBeGreaterThan(report.messages.tokens);
  });
});

describe("settingsReport, editPermissionRule and trustReport", () => {
  it("gives each value its origin, hides secrets, and edits rules that then apply", async () => {
    h = await harness({
      files: {
        ".z-engine/settings.toml":
          '[permissions]\ndeny = ["Bash(rm:*)"]\nallow = ["Bash(ls:*)"]\n[provider.headers]\nAuthorization = "Bearer sk-project-secret"\n',
        "a.txt": "a\n",
      },
      script: [],
      userSettings: '[model]\nmain = "user-model"\n[verification]\nmode = "report"\n',
    });
    const report = settingsReport(h.session);
    expect(report.trusted).toBe(false);
    const main = report.values.find((v) => v.key === "model.main");
    expect(main).toMatchObject({ value: "user-model", origin: { level: "user" } });
    expect(report.values.find((v) => v.key === "context.compact_at_percent")?.origin).toEqual({
      level: "default",
    });
    expect(JSON.stringify(report)).not.toContain("sk-project-secret");
    expect(report.rules).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          list: "deny",
          rule: "Bash(rm:*)",
          applies: true,
          editable: true,
        }),
        expect.objectContaining({ list: "allow", rule: "Bash(ls:*)", applies: false }),
      ]),
    );
    const trust = trustReport(h.session);
    expect(trust.trusted).toBe(false);
    expect(trust.wouldApply.map((c) => c.category)).toEqual(["permissions.allow", "provider"]);
    expect(JSON.stringify(trust)).not.toContain("sk-project-secret");

    // A bad rule is refused; a good one is saved to settings.local.toml and applies at once.
    expect(
      await editPermissionRule(h.session, {
        action: "add",
        list: "deny",
        rule: "Bash(",
        file: "local",
      }),
    ).toMatchObject({ ok: false });
    expect(
      await editPermissionRule(h.session, {
        action: "add",
        list: "deny",
        rule: "Read(./a.txt)",
        file: "local",
      }),
    ).toEqual({ ok: true });
    const local = await readFile(h.repo.path(".z-engine/settings.local.toml"), "utf8");
    expect(local).toContain("Read(./a.txt)");
    h.model.push(reply.toolCall("Read", { file_path: h.repo.path("a.txt") }), reply.text("denied"));
    await h.session.run("read a");
    expect(h.recorder.ofType("toolFinished").at(-1)?.status).toBe("denied");
    // Replace and remove in the shared file.
    expect(
      await editPermissionRule(h.session, {
        action: "replace",
        list: "deny",
        rule: "Bash(rm:*)",
        newRule: "Bash(rm -rf:*)",
        file: "project",
      }),
    ).toEqual({ ok: true });
    const shared = await readFile(h.repo.path(".z-engine/settings.toml"), "utf8");
    expect(shared).toContain('deny = ["Bash(rm -rf:*)"]');
    expect(shared).toContain("sk-project-secret");
    expect(
      await editPermissionRule(h.session, {
        action: "remove",
        list: "deny",
        rule: "Bash(nope)",
        file: "project",
      }),
    ).toMatchObject({ ok: false });
    expect(
      await editPermissionRule(h.session, {
        action: "remove",
        list: "deny",
        rule: "Bash(rm -rf:*)",
        file: "project",
      }),
    ).toEqual({ ok: true });
    expect(settingsReport(h.session).rules.some((r) => r.rule.startsWith("Bash(rm"))).toBe(false);
  });

  it("says so when a settings file does not parse, and leaves it alone", async () => {
    h = await harness({
      files: { ".z-engine/settings.toml": "[permissions\n", "a.txt": "a\n" },
      script: [],
    });
    expect(settingsReport(h.session).problems.join("\n")).toContain("settings.toml");
    const outcome = await editPermissionRule(h.session, {
      action: "add",
      list: "deny",
      rule: "Bash(rm:*)",
      file: "project",
    });
    expect(outcome).toMatchObject({ ok: false });
    expect(await h.repo.read(".z-engine/settings.toml")).toBe("[permissions\n");
  });
});

describe("modelChoices and checkProviderKey", () => {
  it("offers the session's models with windows and prices, and the catalog's of its provider", async () => {
    h = await harness({
      files: { "a.txt": "a\n" },
      script: [],
      userSettings: '[model]\nmain = "claude-sonnet-4-5"\nfast = "claude-haiku-4-5"\n',
    });
    const dataDir = join(h.home, "data");
    await mkdir(dataDir, { recursive: true });
    const catalog = {
      anthropic: {
        models: { "claude-test-9": { name: "Claude Test 9", limit: { context: 123456 } } },
      },
      openai: { models: { "gpt-x": {} } },
    };
    await writeFile(
      join(dataDir, "models-catalog.json"),
      JSON.stringify({ v: 2, fetchedAt: 1, source: "x", data: catalog }),
    );
    const choices = await modelChoices(h.session);
    const ids = choices.map((c) => c.id);
    expect(ids.slice(0, 2)).toEqual(["claude-sonnet-4-5", "claude-haiku-4-5"]);
    expect(ids).toContain("claude-test-9");
    expect(ids).not.toContain("gpt-x");
    const sonnet = choices[0];
    expect(sonnet).toMatchObject({
      current: true,
      roles: ["main", "review"],
      contextWindow: 200_000,
      inputPrice: 3,
      outputPrice: 15,
    });
    expect(choices.find((c) => c.id === "claude-test-9")?.name).toBe("Claude Test 9");
  });

  it("finds the key's source, or says in words that there is none", async () => {
    h = await harness({ files: { "a.txt": "a\n" }, script: [] });
    const paths = resolvePaths({
      ZENGINE_HOME: join(h.home, "data"),
      ZENGINE_CONFIG_HOME: join(h.home, "config"),
    });
    const none = await checkProviderKey({ env: {}, paths, projectRoot: h.repo.root });
    expect(none).toMatchObject({ kind: "anthropic", host: "api.anthropic.com", keySource: null });
    expect(none.problem).toContain("no API key for api.anthropic.com");
    const found = await checkProviderKey({
      env: { ANTHROPIC_API_KEY: "sk-ant-x" },
      paths,
      projectRoot: h.repo.root,
    });
    expect(found).toMatchObject({ keySource: "ANTHROPIC_API_KEY" });
    expect(found.problem).toBeUndefined();
  });
});

describe("sessionAgentList, agentHistory and jobOutput", () => {
  it("lists a subagent with its spend and tells its transcript; a job's output is peeked, not taken", async () => {
    const MARK = "MARKER-SUB: you look around.";
    const sub = (r: ModelRequest) => JSON.stringify(r.system).includes(MARK);
    const main = (r: ModelRequest) => !sub(r);
    h = await harness({
      files: {
        "a.txt": "a\n",
        ".claude/agents/looker.md": `---\nname: looker\ndescription: Looks around\ntools: Read\n---\n${MARK}\n`,
      },
      script: [],
      overrides: { mode: "bypass" },
      userSettings: '[model]\nmain = "m"\n[pricing.m]\ninput = 1000\noutput = 1000\n',
    });
    h.model.push(
      when(
        main,
        reply.toolCall(
          "Agent",
          { description: "look", prompt: "read a.txt", subagent_type: "looker" },
          { usage: { input: 10, output: 1 } },
        ),
      ),
      when(
        sub,
        reply.toolCall(
          "Read",
          { file_path: h.repo.path("a.txt") },
          { usage: { input: 100, output: 5 } },
        ),
      ),
      when(sub, reply.text("a says a", { usage: { input: 100, output: 5 } })),
      when(
        main,
        reply.toolCall("Bash", {
          command: "echo started",
          run_in_background: true,
          description: "watch",
        }),
      ),
      when(main, reply.text("ok", { usage: { input: 10, output: 1 } })),
    );
    await h.session.run("look");
    const report = await sessionAgentList(h.session);
    expect(report.agents).toHaveLength(1);
    const [agent] = report.agents;
    expect(agent).toMatchObject({
      agentType: "looker",
      description: "look",
      status: "completed",
      background: false,
    });
    expect(agent?.usage.input).toBe(200);
    expect(report.mainUsage.input).toBe(20);
    const history = await agentHistory(h.session, agent?.agentId ?? "");
    const types = history.events.map((e) => e.event.type);
    expect(types).toEqual(
      expect.arrayContaining(["assistantFinished", "toolStarted", "toolFinished"]),
    );
    expect(history.events.every((e) => e.agentId === agent?.agentId)).toBe(true);
    await expect(agentHistory(h.session, "agent_unknown")).rejects.toThrow();

    const ended = await h.recorder.waitFor("jobUpdated", { job: { status: "completed" } } as never);
    const job = ended.job;
    expect(jobOutput(h.session, job.id)?.output).toContain("started");
    // Peeking again shows the same output; the model's JobOutput still gets it.
    expect(jobOutput(h.session, job.id)?.output).toContain("started");
    h.model.push(
      when(main, reply.toolCall("JobOutput", { job_id: job.id })),
      when(main, reply.text("read")),
    );
    await h.session.run("read the job");
    const last = h.model.requests.at(-1)?.messages.at(-1);
    expect(JSON.stringify(last)).toContain("started");
    expect(jobOutput(h.session, "job_nope")).toBeUndefined();
  });
});
