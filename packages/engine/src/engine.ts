import { rm } from "node:fs/promises";
import { setMaxListeners } from "node:events";
import type { McpLoginResult } from "@z-engine/integrations";
import type { SessionSummary } from "@z-engine/store";
import type { EngineOptions } from "./settings/engine-options.js";
import {
  type ProviderKeyContext,
  type ProviderKeyStatus,
  providerKeyStatus,
  storeFolderKey,
} from "./queries/provider-key-status.js";
import type { SessionOptions } from "./session-options.js";

export type { SessionOptions } from "./session-options.js";
export type { SessionHandle } from "./session/handle.js";
import type { SessionHandle } from "./session/handle.js";
import { openHandle, overridesOf } from "./session-handle.js";
import { engineCatalog, engineContext } from "./engine-context.js";
import { foldersOf } from "./session/folders.js";
import { TelemetryHub } from "./telemetry/hub.js";
import { privateFolder } from "./util/private-folder.js";
import type { OpenContext } from "./session/open-context.js";
import { forkEngineSession } from "./session/fork.js";
import { createEngineSession, resumeEngineSession } from "./session/open.js";
import type { EngineSession } from "./session/session.js";
import { checkMcpServers, type McpCheck } from "./mcp/check.js";
import { loginFromSettings, logoutFromSettings } from "./mcp/login.js";
import { EngineShutdown } from "./util/abort.js";

/** A host's handle on one open session. */

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
  const catalog = engineCatalog(options, paths);
  const ctx = engineContext(options, env, paths, catalog, lifetime.signal);
  const telemetries = new TelemetryHub({ ...options, env, redactor: ctx.redactor });
  const engine = { ctx, options, telemetries, sessions };
  const open = (how: (ctx: OpenContext) => Promise<EngineSession>, o: SessionOptions) =>
    openHandle(how, o, engine);
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
        await catalog.close();
        if (temporary) await rm(temporary, { recursive: true, force: true });
      })();
      return stopped;
    },
  };
}

/** Where a login without a session finds its folder's settings. */
function loginContext(ctx: Pick<OpenContext, "paths" | "env" | "trustStore">, folder: string) {
  return { folder, paths: ctx.paths, env: ctx.env, trustStore: ctx.trustStore };
}
