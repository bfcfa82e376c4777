import { rm } from "node:fs/promises";
import { homedir } from "node:os";
import { setMaxListeners } from "node:events";
import { join } from "node:path";
import { type EffectiveSettings, TrustStore } from "@z-engine/config";
import type { McpLoginResult } from "@z-engine/integrations";
import { ModelCatalog as LlmCatalog } from "@z-engine/llm";
import type { EngineCommand, EventEnvelope, SessionId, TurnId } from "@z-engine/protocol";
import { FileSessionStore, type SessionSummary } from "@z-engine/store";
import type { EngineOptions } from "./options.js";
import { OFF_MAP, type RepoMapStatus } from "./repo-map/map-status.js";
import type { TurnSummary } from "./run/turn.js";
import { hostSettingsOf } from "./settings/host-settings.js";
import { layerSettings } from "./settings/session-layer.js";
import {
  type ProviderKeyContext,
  type ProviderKeyStatus,
  providerKeyStatus,
  storeFolderKey,
} from "./queries/provider-key-status.js";
import { catalogView, llmClientFactory, pricingOverrides } from "./settings/models.js";
import type { SessionOverrides } from "./settings/session-config.js";
import type { SessionOptions } from "./session-options.js";

export type { SessionOptions } from "./session-options.js";
import { EventFeed } from "./session/event-feed.js";
import { foldersOf } from "./session/folders.js";
import { TelemetryHub } from "./telemetry/hub.js";
import { privateFolder } from "./util/private-folder.js";
import { createRedactor, scrubbedEnvironment, secretValues } from "./util/secrets.js";
import type { OpenContext } from "./session/open-context.js";
import { FileWatches } from "./settings/file-watch.js";
import { forkEngineSession } from "./session/fork.js";
import { createEngineSession, resumeEngineSession } from "./session/open.js";
import type { EngineSession } from "./session/session.js";
import { type SessionMcp, sessionMcp } from "./mcp/prompts.js";
import { checkMcpServers, type McpCheck } from "./mcp/check.js";
import { loginFromSettings, logoutFromSettings } from "./mcp/login.js";
import { EngineShutdown } from "./util/abort.js";
import { commandInfo, type SlashCommandInfo } from "./commands/catalog.js";
import { sessionCatalog } from "./commands/run.js";
import type { CommandResult } from "./commands/result.js";
import { registerHandle } from "./queries/registry.js";
import { childEnvironment, neutralFolder } from "@z-engine/host";
import { SidecarPool } from "./decisions/sidecar-pool.js";

/** A host's handle on one open session. */
export interface SessionHandle {
  readonly id: SessionId;
  /** The real path of the project folder. */
  readonly projectRoot: string;
  /** The session's log.jsonl (hooks get it as `transcript_path`). */
  readonly logPath: string;
  /**
   * Sends a command; it is handled in order. An invalid command is answered with a notice.
   * Never throws. For a submit, returns the id of the turn it starts (its `turnId`, else a new one).
   */
  send(command: EngineCommand): TurnId | undefined;
  /** Resolves with the summary of the next turn that ends (whichever it is). */
  nextTurnEnd(): Promise<TurnSummary>;
  /** Resolves with the summary of the turn of this id once it ends (register before it can end). */
  turnEnd(turnId: TurnId): Promise<TurnSummary>;
  /** Submits a prompt and resolves with the summary of the turn it started, even with concurrent callers. */
  run(prompt: string): Promise<TurnSummary>;
  /**
   * The session's events from now on, in order, until it closes (the loop then ends).
   * Each call is its own subscription; leaving the loop unsubscribes.
   */
  events(): AsyncIterable<EventEnvelope>;
  /** Resolves once no command is pending and no turn runs. */
  idle(): Promise<void>;
  /** Where the repo map stands and its size in the prompt (for `/context`). Never throws. */
  repoMap(): RepoMapStatus;
  /** Resolves when no repo map build is running, with its status then. Never rejects. */
  repoMapIdle(): Promise<RepoMapStatus>;
  /** Stops the running turn, kills the session's jobs, runs SessionEnd hooks and closes the log. */
  close(): Promise<void>;
  /** The session's MCP servers: states, a wait for starts, and prompts as slash commands. */
  readonly mcp: SessionMcp;
  /**
   * The `/` commands a UI offers for completion, in precedence order (engine built-ins,
   * custom commands, prompt built-ins, MCP prompts of ready servers), each name once, with
   * description and argument hint. Custom files are read on each call. Never rejects.
   */
  commands(): Promise<SlashCommandInfo[]>;
  /**
   * Runs `/name args` in the command order (like `runCommand`) and resolves with what it did:
   * an engine built-in's `output` (markdown, also emitted as `commandOutput`), a `notice`
   * (unknown name, a prompt that cannot run), or for a prompt command the `turn`'s summary
   * once it ended. Rejects only when the session's log cannot be written.
   */
  command(name: string, args?: string): Promise<CommandResult>;
}

/** The engine: one per process, the owner of every session it opens. */
export interface Engine {
  /** Creates a session for a project folder (`--cwd`, else the working directory). Rejects when the folder does not exist. */
  createSession(projectRoot: string, options?: SessionOptions): Promise<SessionHandle>;
  /** Opens (resumes) a stored session, repairing a crash. Rejects for an unknown id or a session locked by a live process. */
  openSession(id: string, options?: SessionOptions): Promise<SessionHandle>;
  /**
   * Copies a stored session into a new one and opens the copy (`--fork-session`): the
   * conversation as the model sees it now, title (marked as a fork), mode, model and effort;
   * not its usage, checkpoints, subagent transcripts or check records. The original is left
   * unchanged. Rejects as `openSession` does (unknown id, locked by a live process).
   */
  forkSession(id: string, options?: SessionOptions): Promise<SessionHandle>;
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
  /**
   * `zeng mcp login <server>`: logs in to a remote MCP server of `folder`'s settings with
   * OAuth; `open` is given the authorization page to show in the user's browser (the engine
   * opens nothing itself). Tokens go to `<data>/mcp-auth` (0600), per server and URL. An
   * untrusted project's own server is refused. Rejects with an Error saying why.
   */
  mcpLogin(
    folder: string,
    server: string,
    open: (url: URL) => Promise<void>,
    options?: { signal?: AbortSignal; timeoutMs?: number },
  ): Promise<McpLoginResult>;
  /** `zeng mcp logout <server>`: forgets the server's tokens. Resolves true when there were any. */
  mcpLogout(folder: string, server: string): Promise<boolean>;
  /**
   * Whether sessions of `folder` have a key for their provider (`ZENGINE_API_KEY`, the
   * provider's variable, auth.json; `needed: false` when the host builds its own clients or
   * gave a key): what an ACP agent's `authenticate` checks. Never rejects.
   */
  providerKey(folder: string): Promise<ProviderKeyStatus>;
  /**
   * Stores `apiKey` in auth.json (0600) for the host sessions of `folder` send to, and
   * resolves with that host. Rejects when no endpoint can be made of the settings or the
   * file cannot be written.
   */
  storeProviderKey(folder: string, apiKey: string): Promise<string>;
  /** Closes every session and stops what the engine started (an ephemeral engine's folders are removed). Safe to call twice. */

  shutdown(): Promise<void>;
}

function handleOf(session: EngineSession, feed: EventFeed, forget: () => void): SessionHandle {
  return {
    id: session.id,
    projectRoot: session.projectRoot,
    logPath: session.logPath,
    send: (command) => session.send(command),
    nextTurnEnd: () => session.nextTurnEnd(),
    turnEnd: (turnId) => session.turnEnd(turnId),
    run: (prompt) => {
      const turnId = session.send({ type: "submit", text: prompt }) as TurnId;
      return session.turnEnd(turnId);
    },
    events: () => feed.events(),
    idle: () => session.idle(),
    repoMap: () => session.repoMap?.status() ?? OFF_MAP,
    repoMapIdle: async () => (await session.repoMap?.whenIdle()) ?? OFF_MAP,
    mcp: sessionMcp(session.mcp),
    commands: async () => (await sessionCatalog(session)).entries.map(commandInfo),
    command: (name, args = "") => session.command(name, args),
    close: async () => {
      await session.close();
      feed.close();
      forget();
    },
  };
}

/**
 * Creates the engine. Every option is optional: folders default to the user's (as the CLI
 * uses them), or temporary ones with `ephemeral`. The catalog refreshes in the background
 * only when `catalogSource` asks for it, without keeping the process alive; `shutdown()`
 * stops it.
 */
export async function createEngine(options: EngineOptions = {}): Promise<Engine> {
  const env = options.env ?? process.env;
  const { paths, temporary } = await foldersOf(options, env);
  await privateFolder(paths.dataDir);
  const lifetime = new AbortController();
  // Each open session listens on the engine's lifetime once (released when it closes), so a
  // host with many sessions open is not a leak: no listener limit on this signal.
  setMaxListeners(0, lifetime.signal);
  const sessions = new Map<string, EngineSession>();
  let llmCatalog: LlmCatalog | undefined;
  let opening: Promise<void> | undefined;
  const source = options.catalogSource ?? "off";
  const openCatalog = (settings: EffectiveSettings): Promise<void> => {
    if (options.catalog) return Promise.resolve();
    opening ??= LlmCatalog.open({
      dataDir: paths.dataDir,
      source: source === "settings" ? settings.catalog.source : source,
      modelsJsonPath: join(paths.configDir, "models.json"),
    }).then((catalog) => {
      llmCatalog = catalog;
    });
    return opening;
  };
  const childEnv = scrubbedEnvironment(env);
  const ctx: Omit<OpenContext, "sink"> = {
    paths,
    env,
    childEnv,
    // The configured decision sidecars start in the engine's empty folder, shared by sessions.
    sidecars: new SidecarPool({
      folder: () => neutralFolder(paths.dataDir),
      env: childEnvironment(childEnv),
    }),
    redactor: createRedactor([
      ...secretValues(env),
      ...(options.provider?.apiKey ? [options.provider.apiKey] : []),
    ]),
    store: options.store ?? new FileSessionStore({ dataDir: paths.dataDir }),
    clientFactory:
      options.clientFactory ?? llmClientFactory(env, paths.dataDir, options.provider?.apiKey),
    catalogFor: (settings) =>
      options.catalog ?? {
        info: (model) => catalogView(llmCatalog, () => ({})).info(model),
        price: (model, usage) =>
          catalogView(llmCatalog, () => pricingOverrides(settings())).price(model, usage),
        models: (provider) => catalogView(llmCatalog, () => ({})).models?.(provider) ?? [],
      },
    onSettings: openCatalog,
    hostSettings: hostSettingsOf(options),
    checkpoints: options.checkpoints !== false,
    trustStore: new TrustStore(join(paths.dataDir, "trust.json")),
    extraTools: options.tools ?? [],
    shell: options.shell,
    sandbox: options.sandbox,
    headless: options.headless ?? false,
    ...(options.mcpSampling ? { mcpSampling: options.mcpSampling } : {}),
    repoMap: options.repoMap ?? true,
    ...(options.watchSettings === false ? {} : { settingsWatch: new FileWatches() }),
    clock: options.clock ?? Date.now,
    homeDir: options.homeDir ?? homedir(),
    parent: lifetime.signal,
  };
  const telemetries = new TelemetryHub({ ...options, env, redactor: ctx.redactor });
  const open = async (
    how: (ctx: OpenContext) => Promise<EngineSession>,
    o: SessionOptions,
  ): Promise<SessionHandle> => {
    const feed = new EventFeed();
    if (o.onEvent) feed.listen(o.onEvent);
    const telemetry = telemetries.session();
    const sink = (envelope: EventEnvelope) => {
      telemetry.observe(envelope);
      options.onEvent?.(envelope);
      feed.publish(envelope);
    };
    const sessionCtx = {
      ...ctx,
      sink,
      hookSpans: telemetry.hooks,
      hostSettings: layerSettings(ctx.hostSettings, o.settings),
      ...(o.shell ? { sessionShell: o.shell } : {}),
      ...(o.editor ? { editor: o.editor } : {}),
    };
    const session = await how(sessionCtx);
    sessions.set(session.id, session);
    const handle = handleOf(session, feed, () => {
      sessions.delete(session.id);
      telemetry.close();
    });
    // The queries (queries/) reach the session behind the handle (the web UI's screens).
    registerHandle(handle, { session, ctx: sessionCtx, overrides: overridesOf(o) });
    return handle;
  };
  let stopped: Promise<void> | undefined;
  const keyContext: ProviderKeyContext = {
    env,
    paths,
    hostSettings: ctx.hostSettings,
    trustStore: ctx.trustStore,
    ownClients: options.clientFactory !== undefined || options.provider?.apiKey !== undefined,
  };
  return {
    createSession: (root, o = {}) =>
      open((c) => createEngineSession(c, root, overridesOf(o), o.sessionId), o),
    openSession: (id, o = {}) => open((c) => resumeEngineSession(c, id, overridesOf(o)), o),
    forkSession: (id, o = {}) =>
      open((c) => forkEngineSession(c, id, overridesOf(o), o.sessionId), o),
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
    mcpLogin: (folder, server, open, o) =>
      loginFromSettings(loginContext(ctx, folder), server, open, o),
    mcpLogout: (folder, server) => logoutFromSettings(loginContext(ctx, folder), server),
    providerKey: (folder) => providerKeyStatus(keyContext, folder),
    storeProviderKey: (folder, apiKey) => storeFolderKey(keyContext, folder, apiKey),
    shutdown: () => {
      stopped ??= (async () => {
        await Promise.allSettled([...sessions.values()].map((s) => s.close()));
        sessions.clear();
        telemetries.closeAll();
        ctx.settingsWatch?.close();
        await ctx.sidecars?.close();
        lifetime.abort(new EngineShutdown());
        await opening?.catch(() => {});
        llmCatalog?.close();
        if (temporary) await rm(temporary, { recursive: true, force: true });
      })();
      return stopped;
    },
  };
}

function overridesOf(options: SessionOptions): SessionOverrides {
  const { onEvent: _, editor: _e, shell: _s, settings: _t, sessionId: _i, ...overrides } = options;
  return overrides;
}

/** Where a login without a session finds its folder's settings. */
function loginContext(ctx: Pick<OpenContext, "paths" | "env" | "trustStore">, folder: string) {
  return { folder, paths: ctx.paths, env: ctx.env, trustStore: ctx.trustStore };
}
