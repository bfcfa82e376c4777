// acp.firstUpdate: a prompt to `zeng acp` until its first `session/update` of the turn, with
// the fake provider answering at once, beside `zeng -p`'s first stream-json line in the same
// run (the baseline: the prompt on the command line until the first line of output).
//   acp.firstUpdate      from session/prompt to the first update of the turn (the command list
//                        an opened session sends is not one), in the first session of an agent
//                        just started (initialize and session/new answered before the prompt)
//   acp.firstUpdateWarm  the same in a later session of that agent (an editor's everyday case)
//   acp.firstUpdateFromSpawn  from spawning `zeng acp` (initialize, session/new and the prompt
//                        sent at once) to that first update: the agent's start included, as
//                        the baseline's is
// Runs alternate between the two, after WARMUP of each; medians. Run: pnpm --filter zeng bench
import { spawn } from "node:child_process";
import { performance } from "node:perf_hooks";
import {
  type AcpTestClient,
  connectAcpTestClient,
  reply,
  spawnAcpAgent,
  startFakeProvider,
} from "@z-engine/testkit";
import { benchHome, MAIN, median } from "./world.js";

const RUNS = Number(process.env.BENCH_RUNS ?? 9);
const WARMUP = 2;

type World = Awaited<ReturnType<typeof benchHome>>;

/** `zeng -p hi --output-format stream-json` from its spawn to its first stdout line. */
async function printFirstLine(world: World): Promise<number> {
  const provider = await startFakeProvider({ script: [reply.text("hello"), reply.text("hi")] });
  try {
    const started = performance.now();
    const child = spawn(process.execPath, [MAIN, "-p", "hi", "--output-format", "stream-json"], {
      env: world.env(provider),
      cwd: world.repo.root,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (c: string) => {
      stderr += c;
    });
    let ms: number | undefined;
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (c: string) => {
      out += c;
      if (ms === undefined && out.includes("\n")) ms = performance.now() - started;
    });
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    if (code !== 0 || ms === undefined) throw new Error(`zeng -p exited ${code}: ${stderr}`);
    return ms;
  } finally {
    await provider.close();
  }
}

/** Resolves once a turn's update (not the session's command list) arrives after `from`. */
function firstTurnUpdate(editor: AcpTestClient, from: number) {
  return editor.waitForUpdate((u) => u.sessionUpdate !== "available_commands_update", { from });
}

/** One prompt in a new session of a running agent: from session/prompt to its first update. */
async function warmPrompt(editor: AcpTestClient, cwd: string): Promise<number> {
  const { sessionId } = await editor.agent.request("session/new", { cwd, mcpServers: [] });
  await editor.waitForUpdate((u) => u.sessionUpdate === "available_commands_update", {
    from: editor.notifications.length - 1,
  });
  const from = editor.notifications.length;
  const started = performance.now();
  const prompt = editor.agent.request("session/prompt", {
    sessionId,
    prompt: [{ type: "text", text: "hi" }],
  });
  await firstTurnUpdate(editor, from);
  const ms = performance.now() - started;
  const response = await prompt;
  if (response.stopReason !== "end_turn") throw new Error(`ended ${response.stopReason}`);
  return ms;
}

/** A started `zeng acp`'s first prompt (from its spawn and from the prompt), then a later one's. */
async function acpPrompts(
  world: World,
): Promise<{ fromSpawn: number; first: number; warm: number }> {
  const provider = await startFakeProvider({
    script: Array.from({ length: 4 }, () => reply.text("hello")),
  });
  const started = performance.now();
  const agent = spawnAcpAgent(process.execPath, [MAIN, "acp"], {
    env: world.env(provider),
    cwd: world.repo.root,
  });
  const editor = connectAcpTestClient(agent.stream);
  try {
    await editor.agent.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
    const { sessionId } = await editor.agent.request("session/new", {
      cwd: world.repo.root,
      mcpServers: [],
    });
    const from = editor.notifications.length;
    const prompted = performance.now();
    const prompt = editor.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "hi" }],
    });
    await firstTurnUpdate(editor, from);
    const now = performance.now();
    await prompt;
    const warm = await warmPrompt(editor, world.repo.root);
    return { fromSpawn: now - started, first: now - prompted, warm };
  } catch (error) {
    throw new Error(`zeng acp: ${(error as Error).message}\n${agent.stderr()}`);
  } finally {
    await editor.close();
    const exited = new Promise((resolve) => agent.child.once("exit", resolve));
    agent.child.kill();
    await exited;
    await provider.close();
  }
}

const world = await benchHome();
try {
  for (let i = 0; i < WARMUP; i++) {
    await printFirstLine(world);
    await acpPrompts(world);
  }
  const print: number[] = [];
  const first: number[] = [];
  const warm: number[] = [];
  const fromSpawn: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    print.push(await printFirstLine(world));
    const acp = await acpPrompts(world);
    first.push(acp.first);
    warm.push(acp.warm);
    fromSpawn.push(acp.fromSpawn);
  }
  const base = median(print);
  const fmt = (values: number[]) => values.map((v) => v.toFixed(1)).join(" ");
  console.log(
    `workload: ${RUNS} runs each, alternating, after ${WARMUP} warm-ups; fake provider over HTTP answering "hello" at once; one-file project; data folder (and its code cache) kept across runs`,
  );
  console.log(`zeng -p first line (ms): ${fmt(print)}`);
  console.log(
    `acp first session (ms): ${fmt(first)} | later session: ${fmt(warm)} | from spawn: ${fmt(fromSpawn)}`,
  );
  for (const [name, values] of [
    ["acp.firstUpdate", first],
    ["acp.firstUpdateWarm", warm],
    ["acp.firstUpdateFromSpawn", fromSpawn],
  ] as const)
    console.log(
      `BENCH ${name} ${median(values).toFixed(1)} ms baseline=${base.toFixed(1)} ratio=${(median(values) / base).toFixed(3)}`,
    );
} finally {
  await world.dispose();
}
