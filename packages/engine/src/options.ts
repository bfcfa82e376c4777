import type { EffectiveSettings, Env, Paths } from "@z-engine/config";
import type { SandboxBackend, Shell } from "@z-engine/host";
import type { EventEnvelope, ModelClient } from "@z-engine/protocol";
import type { SessionStore } from "@z-engine/store";
import type { Tool } from "@z-engine/tools";
import type { ModelCatalog } from "./session/core.js";

/** Which model a client is for. */
export interface ClientRequest {
  readonly role: "main" | "fast";
  readonly model: string;
  /** The session's effective settings (provider, fallbacks, pricing). */
  readonly settings: EffectiveSettings;
}

/**
 * Builds the model client for a request. Tests inject one that returns a ScriptedModel. It
 * must not throw: a client that cannot be built should fail each request with the reason,
 * so the session still opens (the default does).
 */
export type ClientFactory = (request: ClientRequest) => ModelClient;

/** The options of {@link createEngine}. Only `paths` and `onEvent` are required. */
export interface EngineOptions {
  /** The config and data folders, from config's `resolvePaths(env)`. */
  readonly paths: Paths;
  /** The one sink every session's events go to. It should not throw (a throw is ignored). */
  readonly onEvent: (envelope: EventEnvelope) => void;
  /** The environment for settings overrides, keys and hooks (default `process.env`). */
  readonly env?: Env;
  /** Where sessions live (default: `FileSessionStore` over `paths.dataDir`). */
  readonly store?: SessionStore;
  /** Model clients (default: `@z-engine/llm` from the session's settings). */
  readonly clientFactory?: ClientFactory;
  /** Model sizes and prices (default: llm's catalog, cached in the data folder). */
  readonly catalog?: ModelCatalog;
  /** Where the default catalog downloads from: a URL, or `"off"` (tests, the demo). Default models.dev. */
  readonly catalogSource?: string;
  /** The host's own tools, offered beside the built-in ones (a same-named tool replaces a built-in). */
  readonly tools?: readonly Tool[];
  /** The shell every command runs in (default: host's shell, inside the sandbox when the settings turn it on). */
  readonly shell?: Shell;
  /** The sandbox backend (default: detected when `[shell.sandbox] enabled`); `null` forces none. */
  readonly sandbox?: SandboxBackend | null;
  /** No one answers approvals, questions or plans: asks are denied (design.md §3, `zeng -p`). */
  readonly headless?: boolean;
  /** Milliseconds since the epoch (default `Date.now`). */
  readonly clock?: () => number;
  /** The user's home folder (default `os.homedir()`). */
  readonly homeDir?: string;
  /**
   * `false`: sessions build no repo map, whatever `context.repo_map_tokens` says (a host
   * that wants no background parsing; most tests). Default `true`.
   */
  readonly repoMap?: boolean;
}
