import { readFile, rm } from "node:fs/promises";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolvePaths } from "@z-engine/config";
import { createEngine, type Engine, type SessionHandle } from "@z-engine/engine";
import { createModelClient } from "@z-engine/llm";
import {
  createFixtureRepo,
  EventRecorder,
  type FakeProvider,
  type FakeProviderRequest,
  type FixtureRepo,
  type ScriptResponse,
  startFakeProvider,
  type WireFormat,
} from "@z-engine/testkit";
import { offersTools } from "../wire/shape.js";

/** The model every fault world's session runs (the fake provider answers any name). */
export const FAULT_MODEL = "claude-sonnet-5-5";

/** One engine, one session, one fake provider speaking `format`, retries on an injected clock. */
export interface FaultWorld {
  readonly format: WireFormat;
  readonly provider: FakeProvider;
  readonly repo: FixtureRepo;
  readonly engine: Engine;
  readonly session: SessionHandle;
  readonly recorder: EventRecorder;
  /** Every retry wait the clients asked for, in ms (none is slept). */
  readonly waits: number[];
  /** The requests of the main agent (they offer tools), in order. */
  mainRequests(): FakeProviderRequest[];
  /** The file a Bash side effect appends to (`sideEffect(token)`), as lines. */
  effects(): Promise<string[]>;
  /** A Bash command that appends `token` to the effects file: run twice, it shows twice. */
  sideEffect(token: string): string;
  /** The session log's records. */
  log(): Promise<Array<Record<string, unknown>>>;
  dispose(): Promise<void>;
}

/** How a fault world is made. */
export interface FaultWorldOptions {
  readonly script?: ReadonlyArray<ScriptResponse<FakeProviderRequest>>;
  /** The client's idle timeout (default: llm's 5 minutes). */
  readonly idleTimeoutMs?: number;
  /** Settings in code (settings.toml's shape), e.g. `{ model: { fallbacks: [...] } }`. */
  readonly settings?: Readonly<Record<string, unknown>>;
}

/**
 * A fixture repository, a temporary home, a fake provider and an engine whose clients are
 * llm's real ones (`createModelClient`: the wire client, retries, fallbacks) pointed at the
 * provider, with the retry clock injected: waits are recorded, never slept. Headless (no
 * titles), checkpoints off, the session trusted and in bypass mode.
 */
export async function faultWorld(
  format: WireFormat,
  options: FaultWorldOptions = {},
): Promise<FaultWorld> {
  const provider = await startFakeProvider({ script: options.script ?? [] });
  const repo = await createFixtureRepo({ files: { "README.md": "A fault world.\n" } });
  const home = await mkdtemp(join(tmpdir(), "zeng-faults-"));
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home };
  const paths = resolvePaths({
    ...env,
    ZENGINE_HOME: join(home, "data"),
    ZENGINE_CONFIG_HOME: join(home, "config"),
  });
  const waits: number[] = [];
  const sleep = async (ms: number) => {
    waits.push(ms);
  };
  const baseUrl = format === "anthropic" ? provider.anthropicBaseUrl : provider.openaiBaseUrl;
  const recorder = new EventRecorder();
  const engine = await createEngine({
    paths,
    env,
    homeDir: home,
    headless: true,
    checkpoints: false,
    repoMap: false,
    catalogSource: "off",
    onEvent: recorder.sink,
    settings: {
      ...options.settings,
      model: { main: FAULT_MODEL, ...(options.settings?.model as object | undefined) },
    },
    clientFactory: ({ role, model, settings }) =>
      createModelClient(
        {
          kind: format,
          baseUrl,
          model,
          apiKey: "test-key",
          retry: { sleep },
          ...(options.idleTimeoutMs ? { idleTimeoutMs: options.idleTimeoutMs } : {}),
          ...(role === "main" && settings.model.fallbacks.length > 0
            ? { fallbacks: settings.model.fallbacks }
            : {}),
        },
        { env, dataDir: paths.dataDir },
      ),
  });
  const session = await engine.createSession(repo.root, { mode: "bypass", trusted: true });
  const effectsFile = join(home, "effects.log");
  return {
    format,
    provider,
    repo,
    engine,
    session,
    recorder,
    waits,
    mainRequests: () => provider.requests.filter(offersTools),
    effects: async () =>
      (await readFile(effectsFile, "utf8").catch(() => "")).split("\n").filter(Boolean),
    sideEffect: (token) => `echo ${token} >> ${effectsFile}`,
    log: async () =>
      (await readFile(session.logPath, "utf8"))
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>),
    dispose: async () => {
      await engine.shutdown().catch(() => {});
      await provider.close();
      await repo.dispose();
      await rm(home, { recursive: true, force: true });
    },
  };
}
