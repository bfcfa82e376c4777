import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { EventEnvelope, ModelClient } from "@z-engine/protocol";
import { EventRecorder } from "./event-recorder.js";
import { createFixtureRepo, type FixtureFiles, type FixtureRepo } from "./fixture-repo.js";
import type { ScriptResponse } from "./model-script.js";
import { ScriptedModel } from "./scripted-model.js";

/** What `createTestEngine` passes the engine factory (a subset of the engine's options). */
export interface TestEngineFactoryOptions {
  /** Temporary config and data folders, removed at shutdown. */
  readonly ephemeral: true;
  /** PATH and a temporary HOME: nothing of the developer's environment leaks in. */
  readonly env: Readonly<Record<string, string>>;
  readonly homeDir: string;
  /** The scripted models: `fast` for the fast role (titles, compaction), `model` for the rest. */
  readonly clientFactory: (request: { readonly role: "main" | "fast" }) => ModelClient;
  readonly catalogSource: "off";
  readonly onEvent: (envelope: EventEnvelope) => void;
}

/** The part of an engine `createTestEngine` uses. */
export interface TestableEngine {
  createSession(projectRoot: string): Promise<unknown>;
  shutdown(): Promise<void>;
}

/** An engine factory: `createEngine` of `@z-engine/engine` fits. */
export type EngineFactory = (options: TestEngineFactoryOptions) => Promise<TestableEngine>;

type EngineOf<F extends EngineFactory> = Awaited<ReturnType<F>>;
type SessionOf<F extends EngineFactory> = Awaited<ReturnType<EngineOf<F>["createSession"]>>;
type SessionOptionsOf<F extends EngineFactory> = Parameters<EngineOf<F>["createSession"]>[1];

/** What a test engine is made of. */
export interface TestEngineOptions<F extends EngineFactory> {
  /**
   * The engine factory, `createEngine` from `@z-engine/engine`: testkit may import only
   * protocol (the dependency rule), so the test hands the engine in.
   */
  readonly createEngine: F;
  /** The project: a fresh git repository written from this file map. */
  readonly files: FixtureFiles;
  /** The main model's responses, in order (more can be pushed with `model.push`). */
  readonly script: readonly ScriptResponse[];
  /** The fast model's responses (titles, compaction); default: titles. */
  readonly fastScript?: readonly ScriptResponse[];
  /** More engine options (settings, tools, store...), over the test defaults. */
  readonly engine?: Omit<Parameters<F>[0], keyof TestEngineFactoryOptions> &
    Record<string, unknown>;
  /** The session's options (mode, trusted, verification...). */
  readonly session?: SessionOptionsOf<F>;
}

/** A running test engine: one session over a fixture repository, driven by scripted models. */
export interface TestEngine<F extends EngineFactory> {
  readonly repo: FixtureRepo;
  readonly engine: EngineOf<F>;
  readonly session: SessionOf<F>;
  /** Every event of every session, checked against the protocol schema. */
  readonly recorder: EventRecorder;
  readonly model: ScriptedModel;
  readonly fast: ScriptedModel;
  readonly home: string;
  /** Shuts the engine down and removes the repository and the home. */
  dispose(): Promise<void>;
}

const TITLE: ScriptResponse = { events: [{ type: "textDelta", text: "Scripted title" }] };

/**
 * An ephemeral engine over a fresh fixture repository, with scripted models and an event
 * recorder, and one session open on the repository. Rejects when the repository, the
 * engine or the session cannot be made (what was made is cleaned up first).
 */
export async function createTestEngine<F extends EngineFactory>(
  options: TestEngineOptions<F>,
): Promise<TestEngine<F>> {
  const repo = await createFixtureRepo({ files: options.files });
  const home = await mkdtemp(join(tmpdir(), "zeng-test-home-"));
  const model = new ScriptedModel(options.script);
  const fast = new ScriptedModel(options.fastScript ?? [TITLE, TITLE, TITLE]);
  const recorder = new EventRecorder();
  const cleanup = async () => {
    await repo.dispose();
    await rm(home, { recursive: true, force: true });
  };
  let engine: EngineOf<F> | undefined;
  try {
    engine = (await options.createEngine({
      ephemeral: true,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home },
      homeDir: home,
      clientFactory: ({ role }) => (role === "fast" ? fast : model),
      catalogSource: "off",
      onEvent: recorder.sink,
      ...options.engine,
    })) as EngineOf<F>;
    const open = engine.createSession as (root: string, o?: unknown) => Promise<SessionOf<F>>;
    const session = await open.call(engine, repo.root, options.session);
    const running = engine;
    return {
      repo,
      engine: running,
      session,
      recorder,
      model,
      fast,
      home,
      dispose: async () => {
        await running.shutdown();
        await cleanup();
      },
    };
  } catch (error) {
    await engine?.shutdown().catch(() => {});
    await cleanup();
    throw error;
  }
}
