import type { EffectiveSettings, Paths, TrustStore } from "@z-engine/config";
import type { SandboxBackend, Shell } from "@z-engine/host";
import type { SessionStore } from "@z-engine/store";
import type { EditorFiles, Tool } from "@z-engine/tools";
import type { HookSpans } from "../hooks/types.js";
import type { ClientFactory, EngineOptions } from "../settings/engine-options.js";
import type { FileWatches } from "../settings/file-watch.js";
import type { Redactor } from "../util/secrets.js";
import type { SidecarPool } from "../sidecars/sidecar-pool.js";
import type { ModelCatalog } from "../settings/model-catalog.js";
import type { EventSink } from "../journal/journal.js";

/** What the engine hands every session it opens. */
export interface OpenContext {
  readonly paths: Paths;
  /** The engine's environment: settings overrides and keys. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** What child processes (shells, checks, hooks, git) get: `env` without secrets. */
  readonly childEnv: Readonly<Record<string, string>>;
  /** Replaces the engine's known secret values in what is recorded and emitted. */
  readonly redactor: Redactor;
  readonly sink: EventSink;
  /** The engine's decision sidecars (`[decisions] sidecar_command`), shared by sessions. */
  readonly sidecars?: SidecarPool;
  /** Where the session's hook runs put their spans (its telemetry). */
  readonly hookSpans?: HookSpans;
  readonly store: SessionStore;
  readonly clientFactory: ClientFactory;
  /** The catalog a session prices with, from its own settings (`[pricing]` is per session). */
  readonly catalogFor: (settings: () => EffectiveSettings) => ModelCatalog;
  /** Called with each session's settings before it opens (the engine opens its catalog lazily). */
  readonly onSettings: (settings: EffectiveSettings) => Promise<void>;
  /** The host's settings object (a user-level layer). */
  readonly hostSettings: Readonly<Record<string, unknown>> | undefined;
  /** Shadow-git checkpoints before each turn. */
  readonly checkpoints: boolean;
  readonly trustStore: TrustStore;
  readonly extraTools: readonly Tool[];
  readonly shell: Shell | undefined;
  /** This session's shell (`SessionOptions.shell`): used unless the settings turn the sandbox on. */
  readonly sessionShell?: Shell;
  /** The host's editor for text files (`SessionOptions.editor`), the file tools' `ports.editor`. */
  readonly editor?: EditorFiles;
  readonly sandbox: SandboxBackend | null | undefined;
  readonly headless: boolean;
  /** Whether sessions build a repo map (EngineOptions.repoMap). */
  readonly repoMap: boolean;
  readonly clock: () => number;
  readonly homeDir: string;
  readonly parent: AbortSignal;
  /** The engine's watches of settings files; absent when the host turned live settings off. */
  readonly settingsWatch?: FileWatches;
  /** The host's answer to MCP sampling, when it opted in. */
  readonly mcpSampling?: EngineOptions["mcpSampling"];
}
