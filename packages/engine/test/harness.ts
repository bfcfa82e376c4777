import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolvePaths } from "@z-engine/config";
import {
  createEngine,
  type Engine,
  type EngineOptions,
  type SessionHandle,
  type SessionOverrides,
} from "@z-engine/engine";
import type {
  ApprovalDecision,
  EngineEventType,
  EventEnvelope,
  ModelClient,
  Question,
  QuestionAnswers,
  ToolResultBlock,
} from "@z-engine/protocol";
import {
  createFixtureRepo,
  EventRecorder,
  type FixtureFiles,
  type FixtureRepo,
  reply,
  ScriptedModel,
  type ScriptResponse,
} from "@z-engine/testkit";

/** How the test answers approvals: a decision per request, by tool name and title. */
export type Approver = (request: {
  toolName: string;
  title: string;
  suggestedRules: readonly string[];
}) => ApprovalDecision | undefined;

export interface HarnessOptions {
  readonly files: FixtureFiles;
  readonly script: readonly ScriptResponse[];
  /** The fast model's script (titles, compaction); default: a title reply. */
  readonly fastScript?: readonly ScriptResponse[];
  /** A client for the fast role instead of the scripted one (the decision layer's model). */
  readonly fastClient?: ModelClient;
  /** User settings.toml text. */
  readonly userSettings?: string;
  readonly overrides?: SessionOverrides;
  readonly approve?: Approver;
  /** How the test answers AskUserQuestion: answers by question text (undefined: leave it waiting). */
  readonly answer?: (question: Question) => QuestionAnswers | undefined;
  readonly engine?: Partial<EngineOptions>;
  /** Variables added to the engine's environment (keys, for instance). */
  readonly extraEnv?: Readonly<Record<string, string>>;
  /** Trust the fixture folder before the session opens. */
  readonly trusted?: boolean;
  /**
   * Where the fixture project's folder is made, relative to the system's temporary folder
   * (default: in it). A sandbox keeps the temporary folder writable, so a test of what a
   * sandboxed command may not write puts the project elsewhere (`../var/tmp`).
   */
  readonly projectParent?: string;
  /** Build the repo map (default off: it joins the prompt when ready, which other tests need not see). */
  readonly repoMap?: boolean;
  /** Runs once the fixture and the home exist, before the engine starts (plant links, FIFOs, secrets). */
  readonly prepare?: (repo: FixtureRepo, home: string) => Promise<void>;
}

export interface Harness {
  readonly repo: FixtureRepo;
  readonly home: string;
  readonly engine: Engine;
  readonly session: SessionHandle;
  readonly recorder: EventRecorder;
  readonly model: ScriptedModel;
  readonly fast: ScriptedModel;
  readonly env: Record<string, string>;
  dispose(): Promise<void>;
}

/** An engine over a fresh fixture repository and a temporary home, driven by scripted models. */
export async function harness(options: HarnessOptions): Promise<Harness> {
  const repo = await createFixtureRepo({
    files: options.files,
    ...(options.projectParent ? { prefix: join(options.projectParent, "zeng-fixture-") } : {}),
  });
  const home = await mkdtemp(join(tmpdir(), "zeng-home-"));
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: home,
    ZENGINE_CONFIG_HOME: join(home, "config"),
    ZENGINE_HOME: join(home, "data"),
    ...options.extraEnv,
  };
  const paths = resolvePaths(env);
  await mkdir(paths.configDir, { recursive: true });
  await options.prepare?.(repo, home);
  if (options.userSettings) await writeFile(paths.userSettingsFile, options.userSettings);
  const model = new ScriptedModel(options.script);
  const fast = new ScriptedModel(
    options.fastScript ?? [{ events: [{ type: "textDelta", text: "Scripted title" }] }],
  );
  const recorder = new EventRecorder();
  let session: SessionHandle | undefined;
  const sink = (envelope: EventEnvelope) => {
    recorder.sink(envelope);
    const e = envelope.event;
    if (e.type === "approvalRequested" && options.approve) {
      const decision = options.approve({
        toolName: e.toolName,
        title: e.title,
        suggestedRules: e.suggestedRules,
      });
      if (decision)
        queueMicrotask(() =>
          session?.send({ type: "resolveApproval", approvalId: e.approvalId, decision }),
        );
    }
    const answers = e.type === "questionAsked" ? options.answer?.(e.question) : undefined;
    if (e.type === "questionAsked" && answers)
      queueMicrotask(() =>
        session?.send({ type: "answerQuestion", questionId: e.question.id, answers }),
      );
  };
  const engine = await createEngine({
    paths,
    onEvent: sink,
    env,
    clientFactory: ({ role }) => (role === "fast" ? (options.fastClient ?? fast) : model),
    catalogSource: "off",
    homeDir: home,
    repoMap: options.repoMap ?? false,
    ...options.engine,
  });
  if (options.trusted) await engine.trustFolder(repo.root);
  session = await engine.createSession(repo.root, options.overrides);
  return {
    repo,
    home,
    engine,
    session,
    recorder,
    model,
    fast,
    env,
    dispose: async () => {
      await engine.shutdown();
      await repo.dispose();
      await rm(home, { recursive: true, force: true });
    },
  };
}

/** A small npm project whose login test fails until `src/auth/token.js` is fixed. */
export const loginProject: FixtureFiles = {
  "package.json": JSON.stringify(
    { name: "login-demo", version: "1.0.0", type: "module", scripts: { test: "node --test" } },
    null,
    2,
  ),
  "src/auth/token.js":
    "export function isExpired(token, now) {\n  return now > token.expiresAt;\n}\n",
  "test/token.test.js":
    'import { test } from "node:test";\nimport assert from "node:assert/strict";\nimport { isExpired } from "../src/auth/token.js";\n\ntest("login token expires at its expiry time", () => {\n  assert.equal(isExpired({ expiresAt: 100 }, 100), true);\n});\n',
};

/** The edit that fixes `loginProject`. */
export const loginFix = {
  file_path: "src/auth/token.js",
  old_string: "now > token.expiresAt",
  new_string: "now >= token.expiresAt",
};

/** Resolves once `count` events of `type` have arrived. */
export async function waitForCount(
  h: Harness,
  type: EngineEventType,
  count: number,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const seen = h.recorder.ofType(type).length;
    if (seen >= count) return;
    if (Date.now() > deadline)
      throw new Error(
        `timed out waiting for ${count} ${type} events (saw ${seen}): ${h.recorder.types().join(", ")}`,
      );
    await h.recorder
      .waitFor(
        type,
        {},
        { fromIndex: h.recorder.envelopes.length, timeoutMs: Math.max(1, deadline - Date.now()) },
      )
      .catch(() => undefined);
  }
}

/** The tool results the `request`-th model request carried in its last message. */
export function resultsOf(h: Harness, request: number): ToolResultBlock[] {
  const last = h.model.requests[request]?.messages.at(-1);
  return (last?.content ?? []).filter((b): b is ToolResultBlock => b.type === "toolResult");
}

/** The "fix the failing test" walkthrough of how-it-works.md, with its five rounds. */
export const walkthroughScript = (path: (p: string) => string) => [
  reply.toolCall("Verify", { checks: ["npm:test"] }),
  reply.toolCalls([
    { name: "Grep", input: { pattern: "isExpired", path: path(".") } },
    { name: "Read", input: { file_path: path("src/auth/token.js") } },
    { name: "Read", input: { file_path: path("test/token.test.js") } },
  ]),
  reply.toolCall("Edit", { ...loginFix, file_path: path(loginFix.file_path) }),
  reply.toolCall("Verify", { checks: ["npm:test"] }),
  reply.text(
    "Fixed `isExpired`: a token now counts as expired at its expiry time. The login test passes.",
  ),
];
