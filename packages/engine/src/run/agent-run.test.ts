import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolvePaths, TrustStore } from "@z-engine/config";
import { InstructionTracker, ReminderQueue } from "@z-engine/context";
import { createShellSession } from "@z-engine/host";
import {
  type EventEnvelope,
  newAgentId,
  newMessageId,
  newTurnId,
  type ToolResultBlock,
} from "@z-engine/protocol";
import { FileSessionStore, type LogRecord, readLog, ReplayFold } from "@z-engine/store";
import { createFileTracker } from "@z-engine/tools";
import { createFixtureRepo, type FixtureRepo, reply, ScriptedModel } from "@z-engine/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { OpenContext } from "../session/open-context.js";
import { createEngineSession } from "../session/open.js";
import type { EngineSession } from "../session/session.js";
import { createRedactor } from "../util/secrets.js";
import { type AgentRun, transcriptSink } from "../core/agent-context.js";
import { runAgent } from "./agent-run.js";
import { newTurnState, TurnGitWork } from "../core/turn-state.js";

let repo: FixtureRepo;
let home: string;
let session: EngineSession;
let model: ScriptedModel;
const events: EventEnvelope[] = [];

async function openSession(script: ConstructorParameters<typeof ScriptedModel>[0]) {
  model = new ScriptedModel(script);
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home };
  const paths = resolvePaths({
    ...env,
    ZENGINE_CONFIG_HOME: join(home, "config"),
    ZENGINE_HOME: join(home, "data"),
  });
  await mkdir(paths.configDir, { recursive: true });
  const ctx: OpenContext = {
    paths,
    env,
    childEnv: env,
    redactor: createRedactor([]),
    sink: (e) => events.push(e),
    store: new FileSessionStore({ dataDir: paths.dataDir }),
    clientFactory: () => model,
    catalogFor: () => ({
      info: () => ({ contextWindow: 200_000, maxOutputTokens: 8_000, vision: true }),
      price: (_m, u) => ({ ...u, costUsd: 0 }),
    }),
    onSettings: async () => {},
    hostSettings: undefined,
    checkpoints: false,
    trustStore: new TrustStore(join(paths.dataDir, "trust.json")),
    extraTools: [],
    shell: undefined,
    sandbox: null,
    headless: true,
    repoMap: false,
    clock: Date.now,
    homeDir: home,
    parent: new AbortController().signal,
  };
  session = await createEngineSession(ctx, repo.root);
}

beforeEach(async () => {
  events.length = 0;
  repo = await createFixtureRepo({ files: { "notes.txt": "the answer is 42\n" } });
  home = await mkdtemp(join(tmpdir(), "zeng-agent-run-"));
});
afterEach(async () => {
  await session?.close();
  await repo.dispose();
  await rm(home, { recursive: true, force: true });
});

/** A depth-1 run with only Read and Grep, recording into its own in-memory transcript. */
function subagentRun(signal: AbortSignal) {
  const agentId = newAgentId();
  const records: LogRecord[] = [];
  const fold = new ReplayFold();
  const journal = session.journal.forAgent(agentId, {
    append: async (record) => {
      records.push(record);
      fold.apply(record);
    },
  });
  const run: AgentRun = {
    agent: {
      agentType: "explore",
      system: () => [{ id: "base", text: "You explore, read-only.", cacheable: true }],
      tools: session.tools.filter((t) => t.name === "Read" || t.name === "Grep"),
      mcpTools: false,
      model: () => "scripted-sub",
      effort: () => undefined,
      mode: () => "ask",
      maxTurns: () => 5,
    },
    transcript: transcriptSink(journal, () => fold.snapshot().workingSet.slice()),
    root: repo.root,
    depth: 1,
    agentId,
    signal,
    reminders: new ReminderQueue(),
    instructions: new InstructionTracker({
      projectRoot: repo.root,
      scopedRules: [],
      fs: session.doors.instructions,
    }),
    files: createFileTracker(),
    shellSession: createShellSession(session.shell, { cwd: repo.root }),
  };
  return { agentId, records, run };
}

describe("runAgent for a subagent", () => {
  it("records into its own transcript, offers only its tools, and tags its events", async () => {
    await openSession([
      reply.toolCalls([
        { name: "Read", input: { file_path: join(repo.root, "notes.txt") }, id: "call_read" },
        { name: "Write", input: { file_path: "x.txt", content: "no" }, id: "call_write" },
      ]),
      reply.text("The answer is 42.", { usage: { input: 10, output: 5 } }),
    ]);
    const controller = new AbortController();
    const { agentId, records, run } = subagentRun(controller.signal);
    const turnId = newTurnId();
    await run.transcript.record("message", {
      message: {
        id: newMessageId(),
        role: "user",
        content: [{ type: "text", text: "Find the answer" }],
      },
      turnId,
    });

    const end = await runAgent(
      session,
      run,
      newTurnState(turnId, controller.signal, 0, new TurnGitWork(async () => null)),
    );

    expect(end).toEqual({ outcome: "completed" });
    // The request offered only the agent's tools, under its own system prompt and model.
    for (const request of model.requests) {
      expect(request.tools.map((t) => t.name)).toEqual(["Read", "Grep"]);
      expect(request.system.map((s) => s.text)).toEqual(["You explore, read-only."]);
      expect(request.model).toBe("scripted-sub");
    }
    // Its transcript holds the whole exchange: the Read ran, the Write was not its tool.
    const messages = records.flatMap((r) => (r.kind === "message" ? [r.message] : []));
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
    const results = (messages[2]?.content ?? []) as ToolResultBlock[];
    expect(results.map((r) => [r.toolUseId, r.isError])).toEqual([
      ["call_read", false],
      ["call_write", true],
    ]);
    expect(JSON.stringify(results[0]?.content)).toContain("the answer is 42");
    expect(JSON.stringify(results[1]?.content)).toContain('Unknown tool \\"Write\\"');
    expect(records.filter((r) => r.kind === "toolFinished")).toHaveLength(2);

    // The main log has none of it but the usage, which is the session's, tagged with the agent.
    await session.log.sync();
    const main = await readLog(session.logPath);
    expect(main.records.filter((r) => r.kind === "message" || r.kind === "toolFinished")).toEqual(
      [],
    );
    const usage = main.records.filter((r) => r.kind === "usage");
    expect(usage.map((r) => (r.kind === "usage" ? r.agentId : undefined))).toEqual([agentId]);
    expect(session.totalUsage.input).toBe(10);

    // Its events carry its id.
    const finished = events.filter((e) => e.event.type === "assistantFinished");
    expect(finished.length).toBe(2);
    expect(finished.every((e) => e.agentId === agentId)).toBe(true);
  });

  it("ends at its own maxTurns, and as cancelled once its signal aborts", async () => {
    await openSession([
      reply.toolCall("Read", { file_path: join(repo.root, "notes.txt") }),
      reply.toolCall("Read", { file_path: join(repo.root, "notes.txt") }),
    ]);
    const controller = new AbortController();
    const { run } = subagentRun(controller.signal);
    const limited: AgentRun = { ...run, agent: { ...run.agent, maxTurns: () => 1 } };
    const turnId = newTurnId();
    const state = newTurnState(turnId, controller.signal, 0, new TurnGitWork(async () => null));
    await run.transcript.record("message", {
      message: { id: newMessageId(), role: "user", content: [{ type: "text", text: "go" }] },
      turnId,
    });
    expect((await runAgent(session, limited, state)).outcome).toBe("budgetExhausted");
    controller.abort();
    expect((await runAgent(session, run, state)).outcome).toBe("cancelled");
    expect(model.requests).toHaveLength(1);
  });
});
