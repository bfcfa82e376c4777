import type { CompiledRule, PermissionRules } from "@z-engine/policy";
import {
  addUsage,
  type AgentId,
  type CheckDefinition,
  type Effort,
  type PermissionMode,
  type SpendSource,
  type TodoItem,
  type ToolCallId,
  type TurnId,
  type Usage,
} from "@z-engine/protocol";
import type { HookRunner } from "../hooks/runner.js";
import type { TurnState } from "./turn-state.js";
import type { SessionConfig } from "../settings/session-config.js";
import type { EventScope, Journal } from "../journal/journal.js";

/**
 * What a session runs with from its settings files: one value, replaced whole when trusting
 * the workspace reloads them (never edited in place), so a reader that took it once sees a
 * consistent set.
 */
export interface SessionSettings {
  readonly config: SessionConfig;
  /** Whether the project folder is trusted (its withheld settings apply). */
  readonly trusted: boolean;
  readonly additionalDirectories: readonly string[];
  readonly hooks: HookRunner;
  /** The checks of the project: discovered, plus configured ones. */
  readonly checks: readonly CheckDefinition[];
}

/** What a usage record says besides the priced usage: the model, and who spent it on what. */
export interface UsageRecord {
  readonly model: string;
  readonly turnId?: TurnId;
  readonly agentId?: AgentId;
  /** What caused a fast-model call; absent for an agent's own rounds. */
  readonly source?: SpendSource;
  /** The tool call that caused it, when a tool did. */
  readonly toolName?: string;
  readonly toolCallId?: ToolCallId;
}

/** The state a session starts with (fresh, or replayed from its log). */
export interface InitialState {
  readonly settings: SessionSettings;
  readonly mode: PermissionMode;
  readonly model: string;
  readonly effort: Effort | undefined;
  readonly todos: readonly TodoItem[];
  readonly totalUsage: Usage;
}

/**
 * The session's changing state. Every field is read-only from outside; each change goes
 * through a method here, and a change that outlives the moment is recorded in the session
 * log, then emitted (design.md §2, record before emit). The value changes first, so that a
 * log that refuses the record (the method rejects) still leaves the session consistent.
 */
export class SessionState {
  #settings: SessionSettings;
  #mode: PermissionMode;
  #model: string;
  #effort: Effort | undefined;
  #todos: readonly TodoItem[];
  #totalUsage: Usage;
  #sessionRules: PermissionRules = { allow: [], ask: [], deny: [] };
  #currentTurn: TurnState | undefined;
  readonly #agentTurns = new Map<AgentId, TurnState>();
  readonly #fastSpend = new Map<SpendSource, Usage>();

  constructor(
    private readonly journal: Journal,
    initial: InitialState,
  ) {
    this.#settings = initial.settings;
    this.#mode = initial.mode;
    this.#model = initial.model;
    this.#effort = initial.effort;
    this.#todos = initial.todos;
    this.#totalUsage = initial.totalUsage;
  }

  get settings(): SessionSettings {
    return this.#settings;
  }
  get mode(): PermissionMode {
    return this.#mode;
  }
  get model(): string {
    return this.#model;
  }
  get effort(): Effort | undefined {
    return this.#effort;
  }
  get todos(): readonly TodoItem[] {
    return this.#todos;
  }
  /** What every agent of the session has spent so far (the cost cap counts it). */
  get totalUsage(): Usage {
    return this.#totalUsage;
  }
  /** The fast model's spend by source since the session opened (the log holds earlier runs'). */
  get fastSpend(): ReadonlyMap<SpendSource, Usage> {
    return this.#fastSpend;
  }
  /** Rules added in this session ("allow in this session"), ahead of the settings' rules. */
  get sessionRules(): PermissionRules {
    return this.#sessionRules;
  }

  /** The running turn's state (live only, not recorded), when a turn runs. */
  get currentTurn(): TurnState | undefined {
    return this.#currentTurn;
  }

  /** Sets or clears the running turn (the session's actor, as a turn starts and ends). */
  setCurrentTurn(turn: TurnState | undefined): void {
    this.#currentTurn = turn;
  }

  /** Replaces the settings (trust reloaded them). Recording the trust decision is the caller's. */
  replaceSettings(settings: SessionSettings): void {
    this.#settings = settings;
    for (const listener of this.settingsReplaced) listener(settings);
  }

  /** Told after each {@link replaceSettings} (the MCP hub sends `roots/list_changed`). Must not throw. */
  readonly settingsReplaced = new Set<(settings: SessionSettings) => void>();

  /** Changes the permission mode: recorded, then modeChanged. Rejects when the log refuses it. */
  async setMode(mode: PermissionMode): Promise<void> {
    this.#mode = mode;
    await this.journal.record("mode", { mode }, { type: "modeChanged", mode });
  }

  /** Changes the main model: recorded, then modelChanged. */
  async setModel(model: string): Promise<void> {
    this.#model = model;
    await this.journal.record("model", { model }, { type: "modelChanged", model });
  }

  /** Changes the effort: recorded, then effortChanged. */
  async setEffort(effort: Effort): Promise<void> {
    this.#effort = effort;
    await this.journal.record("effort", { effort }, { type: "effortChanged", effort });
  }

  /** Replaces the todo list: recorded, then todosUpdated. */
  async setTodos(todos: readonly TodoItem[]): Promise<void> {
    this.#todos = todos;
    await this.journal.record(
      "todos",
      { todos: [...todos] },
      { type: "todosUpdated", todos: [...todos] },
    );
  }

  /**
   * Adds one priced response to the session's total: a usage record (tagged with the agent
   * that spent it, when a subagent did, and with what caused a fast-model call), then
   * costUpdated with the new total (and the call's source).
   */
  async addUsage(usage: Usage, record: UsageRecord, scope: EventScope = {}): Promise<void> {
    this.#totalUsage = addUsage(this.#totalUsage, usage);
    if (record.source) {
      const before = this.#fastSpend.get(record.source);
      this.#fastSpend.set(record.source, before ? addUsage(before, usage) : usage);
    }
    await this.journal.record(
      "usage",
      { usage, ...record },
      {
        type: "costUpdated",
        sessionUsage: this.#totalUsage,
        ...(record.source ? { source: record.source } : {}),
      },
      scope,
    );
  }

  /** The running turn of a subagent (its run's own state), while it runs. */
  agentTurn(agentId: AgentId): TurnState | undefined {
    return this.#agentTurns.get(agentId);
  }

  /** Registers a subagent's running turn; the returned function takes it back. */
  trackAgentTurn(agentId: AgentId, turn: TurnState): () => void {
    this.#agentTurns.set(agentId, turn);
    return () => {
      if (this.#agentTurns.get(agentId) === turn) this.#agentTurns.delete(agentId);
    };
  }

  /**
   * Replaces the session's own rules, unrecorded: a command's or skill's allowed-tools held
   * for one turn and taken back at its end.
   */
  replaceSessionRules(rules: PermissionRules): void {
    this.#sessionRules = rules;
  }

  /** Sets the model for the running turn only (a command's `model`), unrecorded; taken back at its end. */
  overrideModel(model: string): void {
    this.#model = model;
  }

  /** Adds allow rules for the rest of the session (an "always allow" answer). */
  allowForSession(rules: readonly CompiledRule[]): void {
    if (rules.length === 0) return;
    const s = this.#sessionRules;
    this.#sessionRules = { ...s, allow: [...s.allow, ...rules] };
  }
}
