import type { ShellSession, Shell } from "@z-engine/host";
import type { CheckpointStore } from "@z-engine/host";
import type { InstructionTracker, ReminderQueue, TokenEstimator } from "@z-engine/context";
import type { PermissionRules } from "@z-engine/policy";
import type {
  CheckDefinition,
  CheckRecord,
  Effort,
  Message,
  ModelClient,
  PermissionMode,
  SessionId,
  SystemSection,
  TodoItem,
  Usage,
} from "@z-engine/protocol";
import type { Session as StoreSession } from "@z-engine/store";
import type {
  FileTracker,
  PathLocks,
  Tool,
  ToolPorts,
  WebOptions,
  SearchOptions,
} from "@z-engine/tools";
import type { HookRunner } from "../hooks/runner.js";
import type { SessionConfig } from "../settings/session-config.js";
import type { SidecarPool } from "../sidecars/sidecar-pool.js";
import type { Approvals } from "./approvals.js";
import type { Journal } from "../journal/journal.js";
import type { SessionRepoMap } from "../repo-map/session-map.js";
import type { McpHub } from "../mcp/hub.js";
import type { SessionState } from "./state.js";
import type { SessionDefinitions } from "../definitions/definitions.js";
import type { SessionDoors } from "./project-doors.js";
import type { ModelCatalog } from "../settings/model-catalog.js";

/** The sandbox as the session runs it. */
export interface SandboxState {
  /** The writable areas, for the policy's auto-allow; empty when no sandbox runs. */
  readonly writableRoots: readonly string[];
  readonly active: boolean;
  readonly autoAllow: boolean;
  /**
   * Set when the settings turn the sandbox on but it cannot run: why. Commands then run
   * unconfined and need a person's yes (`decideWithSandbox`).
   */
  readonly unavailable?: string;
}

/**
 * The session's live settings (session/live-settings.ts): edits of its settings files put in
 * place between rounds. None of the calls rejects.
 */
export interface LiveSettingsHooks {
  /** At each round's start (the main agent's and subagents'). */
  atRound(): Promise<void>;
  /** At each user turn's start, before its first round. */
  atTurnStart(): Promise<void>;
  /** As a turn ends: an edit made during its last round goes in now. */
  afterTurn(): void;
  /** Stops watching the files (the session closes). */
  close(): void;
}

/**
 * Everything the run code (turns, rounds, the batch, the stop boundary) needs of its
 * session: state, services and the journal. Implemented by `EngineSession`. Each phase takes
 * only its part (a `Pick` named beside it: `StreamCore`, `GateCore`, `StopCore`, ...).
 */
export interface SessionCore {
  readonly id: SessionId;
  readonly projectRoot: string;
  readonly homeDir: string;
  /** The engine's data and config folders: writes there always ask (policy's `engineDirs`). */
  readonly engineDirs: readonly string[];
  readonly journal: Journal;
  readonly log: StoreSession;
  readonly clock: () => number;
  readonly headless: boolean;
  /**
   * The session's changing state and its settings. Changes go through its methods (they
   * record, then emit); the members below read it.
   */
  readonly state: SessionState;
  /** Whether the project folder is trusted (its withheld settings apply). */
  readonly trusted: boolean;

  readonly config: SessionConfig;
  readonly mode: PermissionMode;
  readonly model: string;
  readonly effort: Effort | undefined;
  readonly todos: readonly TodoItem[];
  readonly totalUsage: Usage;
  /** Rules added in this session ("allow in this session"), ahead of the settings' rules. */
  readonly sessionRules: PermissionRules;
  readonly additionalDirectories: readonly string[];
  readonly sandbox: SandboxState;
  /**
   * The shell and sandbox for an agent rooted at `root` (a worktree agent's worktree): the
   * session's shell settings, and its sandbox, when one runs, with `root` as the writable
   * root in place of the project. Absent when the host supplied the shell.
   */
  readonly confine?: (root: string) => { readonly shell: Shell; readonly sandbox: SandboxState };

  readonly approvals: Approvals;
  /** Steering messages waiting for the next round. */
  readonly steering: string[];
  readonly reminders: ReminderQueue;
  readonly instructions: InstructionTracker;
  /** The project-files doors: every project-controlled file the session reads goes through one. */
  readonly doors: SessionDoors;
  readonly estimator: TokenEstimator;
  /** The system sections; replaced when `/remember` changed the instructions (next turn). */
  system: readonly SystemSection[];
  /** Skills, output style and instructions from files (absent in sessions built without them). */
  readonly definitions?: SessionDefinitions;
  /** The repo map, joined to `system` at requests once ready (absent in sessions built without one). */
  readonly repoMap?: SessionRepoMap;
  /** Replaced when trusting the workspace reloads the settings. */
  readonly hooks: HookRunner;
  /** Edits of the settings files, put in place between rounds (absent when the host does not watch them). */
  readonly liveSettings?: LiveSettingsHooks;

  readonly tools: readonly Tool[];
  /** The session's MCP servers: their tools join each request's list and the gate's lookup. */
  readonly mcp: McpHub;
  readonly ports: ToolPorts;
  readonly shell: Shell;
  readonly shellSession: ShellSession;
  readonly files: FileTracker;
  readonly locks: PathLocks;
  readonly web: WebOptions;
  readonly search: SearchOptions;
  readonly checkpoints: CheckpointStore | null;
  readonly checks: () => readonly CheckDefinition[];
  readonly checkRecords: CheckRecord[];
  readonly catalog: ModelCatalog;
  /** The engine's decision sidecars, shared by its sessions (absent in a bare core). */
  readonly sidecars?: SidecarPool;
  /** The client for a model of a role; a client that cannot be built fails each request with the reason. */
  client(role: "main" | "fast", model: string): ModelClient;
  fingerprint(): Promise<string>;
  /**
   * Starts the turn's snapshot (at turn start, beside the first request) and returns the
   * function that records it before the first tool call; undefined when none is taken.
   */
  readonly beginCheckpoint?: (
    turn: import("./turn-state.js").TurnState,
  ) => (() => Promise<void>) | undefined;
  /** The working set for the next request: the store's fold of the log, so live and replay agree. */
  workingSet(): Message[];
}

/**
 * Whether the session's model reads images: `[model] vision` when set, else the catalog's
 * word, else true.
 */
export function modelVision(core: Pick<SessionCore, "config" | "catalog" | "model">): boolean {
  return agentVision(core, core.model);
}

/** Whether `model` reads images: `[model] vision` when set, else the catalog's word, else true. */
export function agentVision(core: Pick<SessionCore, "config" | "catalog">, model: string): boolean {
  return core.config.settings.model.vision ?? core.catalog.info(model).vision;
}
