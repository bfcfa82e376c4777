import { type ChildProcess, spawn } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { resolvePaths } from "@z-engine/config";
import { type EventEnvelope, parseEventEnvelopeJson } from "@z-engine/protocol";
import {
  createFixtureRepo,
  type FakeProvider,
  type FakeProviderRequest,
  type FixtureFiles,
  type FixtureRepo,
  type ScriptReply,
  type ScriptResponse,
  startFakeProvider,
  type WireFormat,
  when,
} from "@z-engine/testkit";

/**
 * dist/zeng.cjs, the bin (tests run against what users run): it runs `zeng -p` itself and
 * imports dist/main.js for the other commands.
 */
export const MAIN = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "dist", "zeng.cjs");

/** The login project of the walkthrough (a failing test until src/auth/token.js is fixed). */
export const loginProject: FixtureFiles = {
  "package.json": JSON.stringify({
    name: "login-demo",
    version: "1.0.0",
    type: "module",
    scripts: { test: "node --test" },
  }),
  "src/auth/token.js":
    "export function isExpired(token, now) {\n  return now > token.expiresAt;\n}\n",
  "test/token.test.js":
    'import { test } from "node:test";\nimport assert from "node:assert/strict";\nimport { isExpired } from "../src/auth/token.js";\n\ntest("login token expires at its expiry time", () => {\n  assert.equal(isExpired({ expiresAt: 100 }, 100), true);\n});\n',
};

/** True for the main agent's requests (they offer tools); title requests offer none. */
export function isMain(request: FakeProviderRequest): boolean {
  const tools = (request.body as { tools?: unknown[] }).tools;
  return Array.isArray(tools) && tools.length > 0;
}

/** A response for main-agent requests only. */
export const main = (response: ScriptReply): ScriptResponse<FakeProviderRequest> =>
  when(isMain, response);

/** What one `zeng` run left behind. */
export interface CliRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** A running `zeng` child. */
export interface CliChild {
  readonly child: ChildProcess;
  /** stdout so far. */
  stdout(): string;
  /** Resolves with the first stdout line for which `test` holds. */
  waitForLine(test: (line: string) => boolean, timeoutMs?: number): Promise<string>;
  readonly done: Promise<CliRun>;
}

/** A fixture repo, a temporary home and a fake provider speaking one wire format. */
export interface World {
  readonly format: WireFormat;
  readonly repo: FixtureRepo;
  readonly provider: FakeProvider;
  readonly home: string;
  readonly env: Record<string, string>;
  /** The requests of the main agent, in order. */
  mainRequests(): FakeProviderRequest[];
  /** Spawns `zeng` in the repo; `env` adds variables (undefined removes one). */
  spawn(args: readonly string[], env?: Record<string, string | undefined>): CliChild;
  run(args: readonly string[], env?: Record<string, string | undefined>): Promise<CliRun>;
  /** The session's log records (parsed lines). */
  log(sessionId: string): Promise<Array<Record<string, unknown>>>;
  dispose(): Promise<void>;
}

export interface WorldOptions {
  readonly format: WireFormat;
  readonly files?: FixtureFiles;
  /** Extra user settings.toml text (the catalog is always off). */
  readonly userSettings?: string;
  readonly script?: ReadonlyArray<ScriptResponse<FakeProviderRequest>>;
  /** The key the fake provider requires (401 otherwise). */
  readonly apiKey?: string;
}

function spawnCli(args: readonly string[], env: Record<string, string>, cwd: string): CliChild {
  const child = spawn(process.execPath, [MAIN, ...args], { env, cwd, stdio: "pipe" });
  let stdout = "";
  let stderr = "";
  const waiters: Array<() => void> = [];
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
    for (const wake of waiters.splice(0)) wake();
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const done = new Promise<CliRun>((resolve) => {
    child.on("close", (code, signal) => {
      for (const wake of waiters.splice(0)) wake();
      resolve({ code, signal, stdout, stderr });
    });
  });
  const waitForLine = async (test: (line: string) => boolean, timeoutMs = 15_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = stdout.split("\n").slice(0, -1).find(test);
      if (found !== undefined) return found;
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error(`zeng exited before the line appeared:\n${stdout}\n${stderr}`);
      if (Date.now() > deadline) throw new Error(`timed out waiting for a line:\n${stdout}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(1, deadline - Date.now()));
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  };
  return { child, stdout: () => stdout, waitForLine, done };
}

/** Builds a world: fixture repo, temp HOME/ZENGINE_HOME/ZENGINE_CONFIG_HOME, fake provider. */
export async function world(options: WorldOptions): Promise<World> {
  const repo = await createFixtureRepo({ files: options.files ?? loginProject });
  const home = await mkdtemp(join(tmpdir(), "zeng-cli-home-"));
  const provider = await startFakeProvider({
    script: options.script ?? [],
    ...(options.apiKey ? { apiKey: options.apiKey } : {}),
  });
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: home,
    ZENGINE_HOME: join(home, "data"),
    ZENGINE_CONFIG_HOME: join(home, "config"),
    ZENGINE_PROVIDER: options.format,
    ZENGINE_BASE_URL:
      options.format === "anthropic" ? provider.anthropicBaseUrl : provider.openaiBaseUrl,
    ZENGINE_API_KEY: "test-key",
  };
  const paths = resolvePaths(env);
  await mkdir(paths.configDir, { recursive: true });
  await writeFile(
    paths.userSettingsFile,
    `[catalog]\nsource = "off"\n\n${options.userSettings ?? ""}`,
  );
  const children: ChildProcess[] = [];
  const spawnOne = (args: readonly string[], extra: Record<string, string | undefined> = {}) => {
    const merged: Record<string, string> = {};
    for (const [k, v] of Object.entries({ ...env, ...extra })) if (v !== undefined) merged[k] = v;
    const c = spawnCli(args, merged, repo.root);
    children.push(c.child);
    return c;
  };
  return {
    format: options.format,
    repo,
    provider,
    home,
    env,
    mainRequests: () => provider.requests.filter(isMain),
    spawn: spawnOne,
    run: (args, extra) => spawnOne(args, extra).done,
    log: async (sessionId) => {
      const text = await readFile(join(paths.dataDir, "sessions", sessionId, "log.jsonl"), "utf8");
      return text
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    },
    dispose: async () => {
      for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
      await provider.close();
      await repo.dispose();
      await rm(home, { recursive: true, force: true });
    },
  };
}

/** The stream-json output split into envelopes and the final result line; throws on a bad line. */
export function streamJson(stdout: string): {
  envelopes: EventEnvelope[];
  result: Record<string, unknown>;
} {
  const lines = stdout.split("\n").filter((l) => l !== "");
  const last = lines.pop();
  if (last === undefined) throw new Error("no output");
  const envelopes = lines.map((line, i) => {
    const parsed = parseEventEnvelopeJson(line);
    if (!parsed.ok)
      throw new Error(`line ${i + 1} is not an envelope: ${parsed.error.message}: ${line}`);
    return parsed.value;
  });
  const result = JSON.parse(last) as Record<string, unknown>;
  if (result.type !== "result") throw new Error(`the last line is not the result: ${last}`);
  return { envelopes, result };
}

/** The formats every end-to-end test runs against. */
export const FORMATS: readonly WireFormat[] = ["anthropic", "openai"];

/**
 * JavaScript for a preloaded module (`NODE_OPTIONS=--require`): wraps `WebAssembly`'s
 * compiling functions so that each compile first runs `statement`. Put in front of the
 * module's own code; the wrapper comes before anything zeng installs.
 */
export function onWasmCompile(statement: string): string {
  return `for (const name of ["Module", "compile", "instantiate"]) {
  WebAssembly[name] = new Proxy(WebAssembly[name], {
    construct(target, args, newTarget) {
      ${statement};
      return Reflect.construct(target, args, newTarget);
    },
    apply(target, self, args) {
      ${statement};
      return Reflect.apply(target, self, args);
    },
  });
}
`;
}

/** `zeng -p <prompt>` with JSON output in bypass mode: the arguments of the preload-watching runs. */
export const headlessBypass = (prompt: string): string[] => [
  "-p",
  prompt,
  "--output-format",
  "json",
  "--permission-mode",
  "bypass",
];

/**
 * Runs `zeng args` in the world with `preload` (a CommonJS module's text) loaded first
 * through `NODE_OPTIONS`. The preload writes what it saw to the file named by
 * `process.env.ZENG_TEST_REPORT`; resolves with the run and that file's text ("" when the
 * preload wrote none). `env` adds variables to the run's.
 */
export async function runPreloaded(
  w: World,
  preload: string,
  args: readonly string[],
  env: Readonly<Record<string, string>> = {},
): Promise<{ run: CliRun; report: string }> {
  const file = join(w.home, "preload.cjs");
  const report = join(w.home, "preload-report");
  await writeFile(file, preload);
  await rm(report, { force: true });
  const run = await w.run(args, {
    ...env,
    NODE_OPTIONS: `--require ${file}`,
    ZENG_TEST_REPORT: report,
  });
  return { run, report: await readFile(report, "utf8").catch(() => "") };
}
