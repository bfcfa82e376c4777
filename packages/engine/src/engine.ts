import { homedir } from "node:os";
import { join } from "node:path";
import { DEFAULT_CATALOG_URL, TrustStore } from "@z-engine/config";
import { ModelCatalog as LlmCatalog } from "@z-engine/llm";
import type { EngineCommand, SessionId } from "@z-engine/protocol";
import { FileSessionStore, type SessionSummary } from "@z-engine/store";
import type { EngineOptions } from "./options.js";
import type { TurnSummary } from "./run/turn.js";
import { catalogView, llmClientFactory, pricingOverrides } from "./settings/models.js";
import type { SessionOverrides } from "./settings/session-config.js";
import { createEngineSession, type OpenContext, resumeEngineSession } from "./session/open.js";
import type { EngineSession } from "./session/session.js";
import { type SessionMcp, sessionMcp } from "./mcp/prompts.js";
import { checkMcpServers, type McpCheck } from "./mcp/check.js";
import { EngineShutdown } from "./util/abort.js";

/** A host's handle on one open session. */
export interface SessionHandle {
  readonly id: SessionId;
  /** The real path of the project folder. */
  readonly projectRoot: string;
  /** The session's log.jsonl (hooks get it as `transcript_path`). */
  readonly logPath: string;
  /** Sends a command; it is handled in order. An invalid command is answered with a notice. Never throws. */
  send(command: EngineCommand): void;
  /** Resolves with the summary of the next turn that ends. */
  nextTurnEnd(): Promise<TurnSummary>;
  /** Submits a prompt and resolves when its turn ends. */
  run(prompt: string): Promise<TurnSummary>;
  /** Resolves once no command is pending and no turn runs. */
  idle(): Promise<void>;
  /** Stops the running turn, kills the session's jobs, runs SessionEnd hooks and closes the log. */
  close(): Promise<void>;
  /** The session's MCP servers: states, a wait for starts, and prompts as slash commands. */
  readonly mcp: SessionMcp;
}

/** The engine: one per process, the owner of every session it opens. */
export interface Engine {
  /** Creates a session for a project folder (`--cwd`, else the working directory). Rejects when the folder does not exist. */
  createSession(projectRoot: string, overrides?: SessionOverrides): Promise<SessionHandle>;
  /** Opens (resumes) a stored session, repairing a crash. Rejects for an unknown id or a session locked by a live process. */
  openSession(id: string, overrides?: SessionOverrides): Promise<SessionHandle>;
  /** Every stored session, newest first. */
  listSessions(): Promise<SessionSummary[]>;
  /** The newest session of a project folder (for `--continue`), if any. */
  latestSession(projectRoot: string): Promise<SessionSummary | undefined>;
  /** Records a folder as trusted (`zeng trust`). */
  trustFolder(folder: string): Promise<void>;
  /**
   * Starts the MCP servers a session of `folder` would start, waits until each is ready or
   * failed, stops them and resolves with their states (`zeng mcp list`). Creates no session.
   * Rejects only when the folder does not exist.
   */
  checkMcpServers(folder: string): Promise<McpCheck>;
  /** Closes every session and stops what the engine started. Safe to call twice. */
  shutdown(): Promise<void>;
}

function handleOf(session: EngineSession, forget: () => void): SessionHandle {
  return {
    id: session.id,
    projectRoot: session.projectRoot,
    logPath: session.logPath,
    send: (command) => session.send(command),
    nextTurnEnd: () => session.nextTurnEnd(),
    run: (prompt) => {
      const end = session.nextTurnEnd();
      session.send({ type: "submit", text: prompt });
      return end;
    },
    idle: () => session.idle(),
    mcp: sessionMcp(session.mcp),
    close: async () => {
      await session.close();
      forget();
    },
  };
}

/**
 * Creates the engine. Folders come in through `paths` (config's `resolvePaths(env)`);
 * nothing is looked up. The catalog refreshes in the background without keeping the
 * process alive; `shutdown()` stops it.
 */
export async function createEngine(options: EngineOptions): Promise<Engine> {
  const env = options.env ?? process.env;
  const lifetime = new AbortController();
  const sessions = new Map<string, EngineSession>();
  const llmCatalog = options.catalog
    ? undefined
    : await LlmCatalog.open({
        dataDir: options.paths.dataDir,
        source: options.catalogSource ?? DEFAULT_CATALOG_URL,
        modelsJsonPath: join(options.paths.configDir, "models.json"),
      });
  let overrides = {};
  const ctx: OpenContext = {
    paths: options.paths,
    env,
    sink: options.onEvent,
    store: options.store ?? new FileSessionStore({ dataDir: options.paths.dataDir }),
    clientFactory: options.clientFactory ?? llmClientFactory(env, options.paths.dataDir),
    catalog: options.catalog ?? catalogView(llmCatalog, () => overrides),
    trustStore: new TrustStore(join(options.paths.dataDir, "trust.json")),
    extraTools: options.tools ?? [],
    shell: options.shell,
    sandbox: options.sandbox,
    headless: options.headless ?? false,
    clock: options.clock ?? Date.now,
    homeDir: options.homeDir ?? homedir(),
    parent: lifetime.signal,
  };
  const adopt = (session: EngineSession): SessionHandle => {
    sessions.set(session.id, session);
    overrides = pricingOverrides(session.config.settings);
    return handleOf(session, () => sessions.delete(session.id));
  };
  let stopped: Promise<void> | undefined;
  return {
    createSession: async (root, o) => adopt(await createEngineSession(ctx, root, o)),
    openSession: async (id, o) => adopt(await resumeEngineSession(ctx, id, o)),
    listSessions: () => ctx.store.list(),
    latestSession: async (root) => {
      const list = await ctx.store.list();
      return list.find((s) => s.projectRoot === root);
    },
    trustFolder: (folder) => ctx.trustStore.trust(folder),
    checkMcpServers: (folder) =>
      checkMcpServers({
        folder,
        paths: ctx.paths,
        env: ctx.env,
        trustStore: ctx.trustStore,
        clock: ctx.clock,
      }),
    shutdown: () => {
      stopped ??= (async () => {
        await Promise.allSettled([...sessions.values()].map((s) => s.close()));
        sessions.clear();
        lifetime.abort(new EngineShutdown());
        llmCatalog?.close();
      })();
      return stopped;
    },
  };
}
