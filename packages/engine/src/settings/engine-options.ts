import type { EffectiveSettings, Env, Paths } from "@z-engine/config";
import type { SandboxBackend, Shell } from "@z-engine/host";
import type { EventEnvelope, ModelClient, ProviderKind } from "@z-engine/protocol";
import type { SessionStore } from "@z-engine/store";
import type { Tool } from "@z-engine/tools";
import type { ModelCatalog } from "./model-catalog.js";
import type { EngineLogger } from "../telemetry/logger.js";
import type { TelemetryOptions } from "../telemetry/session-telemetry.js";

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

/** The model provider in code (instead of `ZENGINE_*` variables or a settings file). */
export interface ProviderOptions {
  /** The wire format; default: detected from `baseUrl` (Anthropic's host gets Anthropic, others OpenAI-compatible). */
  readonly kind?: ProviderKind;
  /** The endpoint (default: the kind's public one). */
  readonly baseUrl?: string;
  /** The key for `baseUrl`'s host; default: looked up (`ZENGINE_API_KEY`, the provider's variable, auth.json). */
  readonly apiKey?: string;
  /** The main model (also the fast one unless the settings name another). */
  readonly model?: string;
}

/** The options of {@link createEngine}. Every one is optional. */
export interface EngineOptions {
  /**
   * The config and data folders. Default: the user's folders as the CLI uses them
   * (config's `resolvePaths(env)`), or temporary ones with `ephemeral`.
   */
  readonly paths?: Paths;
  /**
   * Temporary config and data folders, removed by `shutdown()`: nothing is written to the
   * user's folders or their trust.json. Ignored when `paths` is given.
   */
  readonly ephemeral?: boolean;
  /** A sink for every session's events. It should not throw (a throw is ignored). */
  readonly onEvent?: (envelope: EventEnvelope) => void;
  /** The model provider; it becomes part of the host settings layer (`[provider]`, `[model] main`). */
  readonly provider?: ProviderOptions;
  /**
   * Settings in code: an object shaped like settings.toml (snake_case keys, e.g.
   * `{ verification: { mode: "auto" } }`), validated like a file and layered just above the
   * user's settings.toml (project files and `ZENGINE_*` variables still win). Bad keys
   * become `settings.problem` notices.
   */
  readonly settings?: Readonly<Record<string, unknown>>;
  /** Shadow-git checkpoints before each turn (default true); false turns them off (no rewind of files). */
  readonly checkpoints?: boolean;
  /** The environment for settings overrides, keys and hooks (default `process.env`). */
  readonly env?: Env;
  /** Where sessions live (default: `FileSessionStore` over `paths.dataDir`). */
  readonly store?: SessionStore;
  /** Model clients (default: `@z-engine/llm` from the session's settings). */
  readonly clientFactory?: ClientFactory;
  /** Model sizes and prices (default: llm's catalog, cached in the data folder). */
  readonly catalog?: ModelCatalog;
  /**
   * Where the default catalog refreshes from in the background: a URL, `"settings"` (the
   * `[catalog] source` of the user's settings, as the CLI does), or `"off"`. Default
   * `"off"`: a host gets no network it did not ask for (the cached or built-in table is used).
   */
  readonly catalogSource?: string;
  /** The host's own tools, offered beside the built-in ones (a same-named tool replaces a built-in). */
  readonly tools?: readonly Tool[];
  /** The shell every command runs in (default: host's shell, inside the sandbox when the settings turn it on). */
  readonly shell?: Shell;
  /** The sandbox backend (default: detected when `[shell.sandbox] enabled`); `null` forces none. */
  readonly sandbox?: SandboxBackend | null;
  /** No one answers approvals, questions or plans: asks are denied (design.md §3, `zeng -p`). */
  readonly headless?: boolean;
  /**
   * Watch every session's settings files and put edits in place between rounds (default
   * true; see `LiveSettings`). False: a session keeps the settings it opened with until a
   * trust or settings-screen reload.
   */
  readonly watchSettings?: boolean;
  /** Milliseconds since the epoch (default `Date.now`). */
  readonly clock?: () => number;
  /** The user's home folder (default `os.homedir()`). */
  readonly homeDir?: string;
  /**
   * `false`: sessions build no repo map, whatever `context.repo_map_tokens` says (a host
   * that wants no background parsing; most tests). Default `true`.
   */
  readonly repoMap?: boolean;
  /**
   * Opts in to MCP sampling: servers may ask the host's model (`sampling/createMessage`,
   * params as the MCP spec gives them; resolve with a `CreateMessageResult`). Absent, the
   * capability is not advertised and such requests are refused with an error naming them.
   * The host decides whom to ask and must confine what a server can spend.
   */
  readonly mcpSampling?: (
    server: string,
    params: Readonly<Record<string, unknown>>,
    signal: AbortSignal,
  ) => Promise<Record<string, unknown>>;
  /**
   * Where the engine logs (pino's interface; a pino logger fits). Each line carries the
   * session id, and the turn id within a turn; secrets are redacted. Default: no logs.
   */
  readonly logger?: EngineLogger;
  /**
   * Trace and metric options. Spans and metrics go through `@opentelemetry/api`'s global
   * providers: the host's SDK records them; without one they cost nothing.
   */
  readonly telemetry?: TelemetryOptions;
}
