// MCP figures. mcp.start: session open to the first model request with 3 stdio MCP servers
// configured (the request must not wait for them), against a session with none; the servers'
// own start times are printed beside it. mcp.call: one trivial MCP tool call (echo) through
// the gate (allowed by a rule) and the batch, from the assistant message to toolFinished,
// against a bare SDK callTool on the same server. Run: pnpm --filter @z-engine/engine bench
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { resolvePaths } from "@z-engine/config";
import type { EventEnvelope, ModelClient } from "@z-engine/protocol";
import { ReminderQueue } from "@z-engine/context";
import { compileRules, decide } from "@z-engine/policy";
import { createFixtureRepo, MCP_TEST_SERVER, reply, ScriptedModel } from "@z-engine/testkit";
import {
  DEFAULT_TOOL_LIMITS,
  parsedToolActions,
  parseToolInput,
  runParsedTool,
  type ToolCtx,
} from "@z-engine/tools";
import { createEngine } from "../src/index.js";
import { effectiveRules } from "../src/batch/gate.js";
import { McpHub } from "../src/mcp/hub.js";
import { hubPort } from "../src/mcp/port.js";
import { childLaunch } from "../src/launch/child-launch.js";

const RUNS = 5;
/** Calls of each kind in mcp.call (their median is stable to about 0.01 ms from about 300 on). */
const CALLS = 400;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const q = JSON.stringify;

function serversToml(count: number): string {
  return Array.from({ length: count }, (_, i) =>
    [
      `[mcp.servers.s${i}]`,
      `command = ${q(process.execPath)}`,
      `args = [${q(MCP_TEST_SERVER)}]`,
      "",
    ].join("\n"),
  ).join("\n");
}

interface World {
  run(prompt: string): Promise<void>;
  readonly firstRequestMs: () => number;
  readonly events: { at: number; e: EventEnvelope }[];
  readonly openedAt: number;
  settled(): Promise<void>;
  dispose(): Promise<void>;
}

async function world(settings: string, script: Parameters<ScriptedModel["push"]>): Promise<World> {
  const repo = await createFixtureRepo({ files: { "README.md": "# bench\n" } });
  const home = await mkdtemp(join(tmpdir(), "zeng-bench-"));
  const env = {
    PATH: process.env.PATH ?? "",
    HOME: home,
    ZENGINE_HOME: join(home, "data"),
    ZENGINE_CONFIG_HOME: join(home, "config"),
  };
  const paths = resolvePaths(env);
  await mkdir(paths.configDir, { recursive: true });
  await writeFile(paths.userSettingsFile, settings);
  const model = new ScriptedModel(script);
  let first = 0;
  const timed: ModelClient = {
    stream: (request, signal) => {
      if (first === 0) first = performance.now();
      return model.stream(request, signal);
    },
  } as ModelClient;
  const events: { at: number; e: EventEnvelope }[] = [];
  const engine = await createEngine({
    paths,
    env,
    onEvent: (e) => events.push({ at: performance.now(), e }),
    clientFactory: ({ role }) => (role === "fast" ? new ScriptedModel([reply.text("t")]) : timed),
    catalogSource: "off",
    homeDir: home,
  });
  const openedAt = performance.now();
  const session = await engine.createSession(repo.root);
  return {
    run: async (prompt) => void (await session.run(prompt)),
    firstRequestMs: () => first - openedAt,
    events,
    openedAt,
    settled: () => session.mcp.settled(),
    dispose: async () => {
      await engine.shutdown();
      await repo.dispose();
      await rm(home, { recursive: true, force: true });
    },
  };
}

async function start(): Promise<void> {
  const withServers: number[] = [];
  const without: number[] = [];
  const serverStarts: number[] = [];
  for (let i = 0; i < RUNS + 1; i++) {
    for (const [count, into] of [
      [3, withServers],
      [0, without],
    ] as const) {
      const w = await world(serversToml(count), [reply.text("hi")]);
      await w.run("hi");
      if (i > 0) into.push(w.firstRequestMs());
      await w.settled();
      if (i > 0 && count > 0)
        for (const { e } of w.events)
          if (e.event.type === "mcpServerUpdated" && e.event.server.startMs !== undefined)
            serverStarts.push(e.event.server.startMs);
      await w.dispose();
    }
  }
  const value = median(withServers);
  const base = median(without);
  console.log(
    "workload: session open to the first model request, 3 stdio MCP servers vs none; median of 5",
  );
  console.log(
    `BENCH engine.mcp.start ${value.toFixed(1)} ms baseline=${base.toFixed(1)} ratio=${(value / base).toFixed(2)}`,
  );
  console.log(`(the servers' own start, each: median ${median(serverStarts).toFixed(0)} ms)`);
}

/**
 * The gate and the call as the batch does them: the input parsed once, the tool's actions on
 * the parsed value, decide() on the session's joined rules with a context built per call from
 * the session's values, then the parsed value run through the hub.
 */
async function gatedCall(): Promise<{
  gated: number;
  bare: number;
  options: number;
  optionsBare: number;
}> {
  const client = new Client({ name: "bench", version: "0" });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [MCP_TEST_SERVER] }),
  );
  const bareTimes: number[] = [];
  const hub = new McpHub({
    journal: { emit: () => {}, notice: async () => {} },
    reminders: new ReminderQueue(),
    env: { PATH: process.env.PATH ?? "" },
    clock: Date.now,
  });
  const childEnv = { PATH: process.env.PATH ?? "" };
  hub.reconcile(
    { s0: { command: process.execPath, args: [MCP_TEST_SERVER] } },
    {
      sources: {},
      launch: childLaunch({ childEnv, paths: { dataDir: tmpdir() } }, tmpdir(), true, { env: {} }),
    },
  );
  await hub.settled();
  const tool = hub.find("mcp__s0__echo");
  if (!tool) throw new Error("the echo tool is missing");
  const root = tmpdir();
  const origin = { source: "bench", root };
  const session = {
    sessionRules: { allow: [], ask: [], deny: [] },
    config: { rules: { allow: compileRules(["mcp__s0"], origin).rules, ask: [], deny: [] } },
  };
  const base = {
    onProgress: () => {},
    vision: true,
    limits: DEFAULT_TOOL_LIMITS,
    artifacts: { put: async () => ({ ref: "x", truncated: false }), read: async () => "" },
    ports: { mcp: hubPort(hub) },
  };
  const times: number[] = [];
  const bareCall = async (i: number) => {
    const b = performance.now();
    await client.callTool({ name: "echo", arguments: { text: `n${i}` } });
    if (i >= 5) bareTimes.push(performance.now() - b);
  };
  const gated = async (i: number) => {
    const input = { text: `n${i}` };
    const ctx = { ...base, signal: new AbortController().signal } as unknown as ToolCtx;
    const t = performance.now();
    const parsed = parseToolInput(tool, input);
    if (!parsed.ok) throw new Error(parsed.error);
    const described = await parsedToolActions(tool, parsed.input, ctx);
    if (!described.ok) throw new Error(described.error);
    const decision = decide(
      { toolName: tool.name, actions: described.actions },
      "ask",
      effectiveRules(session as unknown as Parameters<typeof effectiveRules>[0]),
      { projectRoot: root, additionalDirectories: [], homeDir: root, autoAllowReadOnlyBash: false },
    );
    if (decision.type !== "allow") throw new Error(`not allowed: ${decision.type}`);
    const out = await runParsedTool(tool, parsed.input, ctx);
    if (i >= 5) times.push(performance.now() - t);
    if (out.isError) throw new Error("the call failed");
  };
  // The same SDK call as the bare one, on a server of its own, with the options every gated
  // call sends: a cancellation signal, a progress token (progress becomes toolProgress) and the
  // call timeout. It shows how much of the gap is the MCP request itself, not the gate.
  const optionTimes: number[] = [];
  const withOptions = new Client({ name: "bench", version: "0" });
  await withOptions.connect(
    new StdioClientTransport({ command: process.execPath, args: [MCP_TEST_SERVER] }),
  );
  const optionsCall = async (i: number) => {
    const signal = new AbortController().signal;
    const b = performance.now();
    await withOptions.callTool({ name: "echo", arguments: { text: `n${i}` } }, undefined, {
      signal,
      onprogress: () => {},
      timeout: 600_000,
      resetTimeoutOnProgress: true,
    });
    if (i >= 5) optionTimes.push(performance.now() - b);
  };
  // Each against bare calls on a server of its own, so both see the same machine load, and in
  // turns first, since the first call after the other server's is measurably slower.
  const alternate = async (other: (i: number) => Promise<void>) => {
    for (let i = 0; i < CALLS + 5; i++) {
      if (i % 2 === 0) {
        await bareCall(i);
        await other(i);
      } else {
        await other(i);
        await bareCall(i);
      }
    }
  };
  await alternate(gated);
  const bare = median(bareTimes);
  bareTimes.length = 0;
  await alternate(optionsCall);
  const optionsBare = median(bareTimes);
  await hub.close();
  await client.close();
  await withOptions.close();
  return { gated: median(times), bare, options: median(optionTimes), optionsBare };
}

async function engineCall(): Promise<number> {
  const script = [
    ...Array.from({ length: CALLS + 5 }, (_, n) =>
      reply.toolCall("mcp__s0__echo", { text: `n${n}` }),
    ),
    reply.text("done"),
  ];
  const w = await world(
    `[permissions]\nallow = ["mcp__s0"]\n[agents]\nmax_turns = 1000\n\n${serversToml(1)}`,
    script,
  );
  await w.settled();
  await w.run("go");
  const times: number[] = [];
  let from = 0;
  for (const { at, e } of w.events) {
    if (e.event.type === "assistantFinished") from = at;
    if (e.event.type === "toolFinished" && from > 0) times.push(at - from);
  }
  await w.dispose();
  return median(times.slice(5));
}

async function call(): Promise<void> {
  const { gated, bare, options, optionsBare } = await gatedCall();
  const round = await engineCall();
  console.log(
    `workload: one trivial MCP tool call (echo over stdio): parse, actions, decide() and the call through the hub vs a bare SDK callTool, alternately first; median of ${CALLS}`,
  );
  console.log(
    `BENCH engine.mcp.call ${gated.toFixed(2)} ms baseline=${bare.toFixed(2)} ratio=${(gated / bare).toFixed(2)}`,
  );
  console.log(
    `(the bare SDK callTool with the options a gated call sends, signal, progress token and timeout: ${options.toFixed(2)} ms against bare ${optionsBare.toFixed(2)} ms, ratio ${(options / optionsBare).toFixed(2)})`,
  );
  console.log(
    `(the whole batch in a session, assistantFinished to toolFinished, with its log records: ${round.toFixed(2)} ms)`,
  );
}

if (process.env.MCP_BENCH_ONLY !== "call") await start();
await call();
