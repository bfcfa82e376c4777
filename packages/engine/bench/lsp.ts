// What language servers cost an Edit: the same Edit with a warm typescript-language-server
// (errors appended) and with LSP off, alternated, 40 pairs; and a definition round trip.
// Run: pnpm --filter @z-engine/engine bench:lsp
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import {
  childEnvironment,
  createProjectFileReader,
  createShell,
  createShellSession,
} from "@z-engine/host";
import type { AgentId, ArtifactSink, SessionId, ToolCallId } from "@z-engine/protocol";
import {
  createFileTracker,
  createPathLocks,
  DEFAULT_TOOL_LIMITS,
  editTool,
  readTool,
  runTool,
  type ToolCtx,
  type ToolPorts,
} from "@z-engine/tools";
import { SessionLsp } from "../src/lsp/hub.js";

const PAIRS = 40;
const QUERIES = 30;
const MODULES = resolve(dirname(fileURLToPath(import.meta.url)), "../node_modules");

const artifacts: ArtifactSink = {
  put: async () => {
    throw new Error("no artifacts in this bench");
  },
  read: async () => undefined,
};

function ctxFor(root: string, ports: ToolPorts): ToolCtx {
  const shell = createShell({ baseEnv: { PATH: process.env.PATH } });
  return {
    sessionId: "ses_bench" as SessionId,
    agentId: "agent_bench" as AgentId,
    callId: "call_bench" as ToolCallId,
    root,
    additionalDirectories: [],
    shellSession: createShellSession(shell, { cwd: root }),
    shell,
    signal: new AbortController().signal,
    files: createFileTracker(),
    locks: createPathLocks(),
    web: {},
    search: {},
    onProgress: () => {},
    artifacts,
    limits: DEFAULT_TOOL_LIMITS,
    vision: false,
    ports,
  };
}

async function tsProject(): Promise<string> {
  const root = await realpath(await mkdtemp(join(tmpdir(), "zeng-lsp-bench-")));
  await mkdir(join(root, "src"), { recursive: true });
  await mkdir(join(root, "node_modules/.bin"), { recursive: true });
  for (const name of ["typescript", "typescript-language-server"])
    await symlink(await realpath(join(MODULES, name)), join(root, "node_modules", name));
  await symlink(
    "../typescript-language-server/lib/cli.mjs",
    join(root, "node_modules/.bin/typescript-language-server"),
  );
  await writeFile(
    join(root, "tsconfig.json"),
    JSON.stringify({ compilerOptions: { strict: true }, include: ["src"] }),
  );
  await writeFile(
    join(root, "src/greet.ts"),
    'export function greet(name: string): string {\n  return "hello " + name;\n}\n',
  );
  for (const file of ["on.ts", "off.ts"])
    await writeFile(
      join(root, "src", file),
      'import { greet } from "./greet.js";\n\nexport const message: string = greet("world");\n',
    );
  return root;
}

const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const pick = (xs: number[], q: number) =>
  sorted(xs)[Math.min(xs.length - 1, Math.floor(q * xs.length))] ?? 0;

async function timedEdit(ctx: ToolCtx, path: string, n: number): Promise<[number, boolean]> {
  // Alternates a type error in and out, so half the Edits report one.
  const [from, to] =
    n % 2 === 0 ? ["message: string", "message: number"] : ["message: number", "message: string"];
  const started = performance.now();
  const out = await runTool(editTool, { file_path: path, old_string: from, new_string: to }, ctx);
  const took = performance.now() - started;
  const text = out.content[0]?.type === "text" ? out.content[0].text : "";
  return [took, text.includes("error TS") || text.includes("[typescript 2322]")];
}

async function main(): Promise<void> {
  const root = await tsProject();
  const lsp = new SessionLsp({
    root,
    env: () => childEnvironment(process.env),
    files: createProjectFileReader({ roots: [root] }),
    trusted: () => true,
    settings: () => ({ enabled: true, servers: {} }),
  });
  const on = ctxFor(root, { lsp });
  const off = ctxFor(root, {});
  const onPath = join(root, "src/on.ts");
  const offPath = join(root, "src/off.ts");
  const signal = new AbortController().signal;
  try {
    // Warm: the server runs, has the project loaded and the file open.
    const first = await lsp.query({ operation: "diagnostics", filePath: onPath }, signal);
    if (first.isError) throw new Error(`no server: ${JSON.stringify(first.content)}`);
    await runTool(readTool, { file_path: onPath }, on);
    await runTool(readTool, { file_path: offPath }, off);
    const extra: number[] = [];
    const base: number[] = [];
    let reported = 0;
    for (let n = 0; n < PAIRS; n++) {
      const [withLsp, saw] = await timedEdit(on, onPath, n);
      const [without] = await timedEdit(off, offPath, n);
      if (saw) reported++;
      base.push(without);
      extra.push(withLsp - without);
    }
    const queries: number[] = [];
    for (let n = 0; n < QUERIES; n++) {
      const started = performance.now();
      const out = await lsp.query(
        { operation: "definition", filePath: onPath, line: 3, character: 32 },
        signal,
      );
      queries.push(performance.now() - started);
      if (out.isError) throw new Error("definition failed");
    }
    const f = (x: number) => x.toFixed(1);
    console.log(`errors reported on ${reported} of ${PAIRS / 2} Edits that made one`);
    console.log(
      `BENCH engine.lsp.afterwrite.median ${f(pick(extra, 0.5))} ms baseline=${f(pick(base, 0.5))}`,
    );
    console.log(
      `BENCH engine.lsp.afterwrite.p90 ${f(pick(extra, 0.9))} ms baseline=${f(pick(base, 0.9))}`,
    );
    console.log(`BENCH engine.lsp.query ${f(pick(queries, 0.5))} ms p90=${f(pick(queries, 0.9))}`);
  } finally {
    await lsp.close();
    await rm(root, { recursive: true, force: true });
  }
}

await main();
