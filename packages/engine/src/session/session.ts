import type { InstructionTracker, ReminderQueue, TokenEstimator } from "@z-engine/context";
import type { CheckpointStore, Shell, ShellSession } from "@z-engine/host";
import type { PermissionRules } from "@z-engine/policy";
import {
  type CheckDefinition,
  type CheckRecord,
  type Effort,
  type EngineCommand,
  type Message,
  type ModelClient,
  newTurnId,
  type PermissionMode,
  parseEngineCommand,
  type SessionId,
  type SystemSection,
  type TodoItem,
  type Usage,
} from "@z-engine/protocol";
import type { Session as StoreSession } from "@z-engine/store";
import type {
  FileTracker,
  PathLocks,
  SearchOptions,
  Tool,
  ToolPorts,
  WebOptions,
} from "@z-engine/tools";
import type { Approvals } from "../batch/approvals.js";
import type { HookRunner } from "../hooks/runner.js";
import { runTurn, type Submission, type TurnSummary } from "../run/turn.js";
import type { TurnState } from "../run/turn-state.js";
import type { SessionConfig } from "../settings/session-config.js";
import { type LinkedController, linkedController, UserStop } from "../util/abort.js";
import type { ModelCatalog, SandboxState, SessionCore } from "./core.js";
import type { Journal } from "./journal.js";
import { generateTitle } from "./title.js";

/** Everything a session is built from (see `openSession` in open.ts). */
export interface SessionParts {
  readonly id: SessionId;
  readonly projectRoot: string;
  readonly homeDir: string;
  readonly journal: Journal;
  readonly log: StoreSession;
  readonly clock: () => number;
  readonly headless: boolean;
  readonly parent: AbortSignal;
  trusted: boolean;
  config: SessionConfig;
  mode: PermissionMode;
  model: string;
  effort: Effort | undefined;
  todos: readonly TodoItem[];
  totalUsage: Usage;
  turnCount: number;
  readonly additionalDirectories: readonly string[];
  readonly sandbox: SandboxState;
  readonly approvals: Approvals;
  readonly reminders: ReminderQueue;
  readonly instructions: InstructionTracker;
  readonly estimator: TokenEstimator;
  readonly system: readonly SystemSection[];
  hooks: HookRunner;
  readonly tools: readonly Tool[];
  readonly ports: ToolPorts;
  readonly shell: Shell;
  readonly shellSession: ShellSession;
  readonly files: FileTracker;
  readonly locks: PathLocks;
  readonly web: WebOptions;
  readonly search: SearchOptions;
  readonly checkpoints: CheckpointStore | null;
  readonly checkRecords: CheckRecord[];
  readonly catalog: ModelCatalog;
  readonly clientFor: (role: "main" | "fast", model: string) => ModelClient;
  readonly fingerprintOf: () => Promise<string>;
  checkList: readonly CheckDefinition[];
}

/** Session-level operations that live in their own modules (rewind, trust, close). */
export interface SessionExtensions {
  rewind(
    session: EngineSession,
    command: Extract<EngineCommand, { type: "rewind" }>,
  ): Promise<void>;
  trust(session: EngineSession, trusted: boolean): Promise<void>;
  resolveQuestion(command: Extract<EngineCommand, { type: "answerQuestion" }>): boolean;
  resolvePlan(command: Extract<EngineCommand, { type: "resolvePlan" }>): boolean;
  killJob(jobId: string): Promise<boolean>;
  takeCheckpoint(session: EngineSession, turn: TurnState): Promise<void>;
  close(session: EngineSession): Promise<void>;
}

interface RunningTurn {
  readonly turnId: string;
  readonly controller: LinkedController;
  readonly state: { turn?: TurnState };
}

/**
 * One session: its state, and the actor that takes host commands from a queue. The actor
 * never waits on the model or a tool: a turn runs as its own task, and approvals, questions
 * and plans wait in brokers, so steering, mode changes and cancel stay responsive.
 */
export class EngineSession implements SessionCore {
  readonly id: SessionId;
  readonly projectRoot: string;
  readonly homeDir: string;
  readonly journal: Journal;
  readonly log: StoreSession;
  readonly clock: () => number;
  readonly headless: boolean;
  trusted: boolean;
  config: SessionConfig;
  mode: PermissionMode;
  model: string;
  effort: Effort | undefined;
  todos: readonly TodoItem[];
  totalUsage: Usage;
  turnCount: number;
  sessionRules: PermissionRules = { allow: [], ask: [], deny: [] };
  additionalDirectories: readonly string[];
  readonly sandbox: SandboxState;
  readonly approvals: Approvals;
  readonly steering: string[] = [];
  readonly reminders: ReminderQueue;
  readonly instructions: InstructionTracker;
  readonly estimator: TokenEstimator;
  readonly system: readonly SystemSection[];
  hooks: HookRunner;
  readonly tools: readonly Tool[];
  readonly ports: ToolPorts;
  readonly shell: Shell;
  readonly shellSession: ShellSession;
  readonly files: FileTracker;
  readonly locks: PathLocks;
  readonly web: WebOptions;
  readonly search: SearchOptions;
  readonly checkpoints: CheckpointStore | null;
  readonly checkRecords: CheckRecord[];
  readonly catalog: ModelCatalog;
  checkList: readonly CheckDefinition[];
  readonly takeCheckpoint: (turn: TurnState) => Promise<void>;

  private readonly clientFor: SessionParts["clientFor"];
  private readonly fingerprintOf: SessionParts["fingerprintOf"];
  private readonly lifetime: LinkedController;
  private readonly queue: Submission[] = [];
  private running: RunningTurn | null = null;
  private commands: Promise<void> = Promise.resolve();
  private background = new Set<Promise<unknown>>();
  private turnWaiters: Array<(summary: TurnSummary) => void> = [];
  private idleWaiters: Array<() => void> = [];
  private closing: Promise<void> | undefined;

  constructor(
    parts: SessionParts,
    private readonly ext: SessionExtensions,
  ) {
    this.id = parts.id;
    this.projectRoot = parts.projectRoot;
    this.homeDir = parts.homeDir;
    this.journal = parts.journal;
    this.log = parts.log;
    this.clock = parts.clock;
    this.headless = parts.headless;
    this.trusted = parts.trusted;
    this.config = parts.config;
    this.mode = parts.mode;
    this.model = parts.model;
    this.effort = parts.effort;
    this.todos = parts.todos;
    this.totalUsage = parts.totalUsage;
    this.turnCount = parts.turnCount;
    this.additionalDirectories = parts.additionalDirectories;
    this.sandbox = parts.sandbox;
    this.approvals = parts.approvals;
    this.reminders = parts.reminders;
    this.instructions = parts.instructions;
    this.estimator = parts.estimator;
    this.system = parts.system;
    this.hooks = parts.hooks;
    this.tools = parts.tools;
    this.ports = parts.ports;
    this.shell = parts.shell;
    this.shellSession = parts.shellSession;
    this.files = parts.files;
    this.locks = parts.locks;
    this.web = parts.web;
    this.search = parts.search;
    this.checkpoints = parts.checkpoints;
    this.checkRecords = parts.checkRecords;
    this.catalog = parts.catalog;
    this.checkList = parts.checkList;
    this.clientFor = parts.clientFor;
    this.fingerprintOf = parts.fingerprintOf;
    this.lifetime = linkedController(parts.parent);
    this.takeCheckpoint = (turn) => this.ext.takeCheckpoint(this, turn);
  }

  /** The log's path (hooks get it as `transcript_path`). */
  get logPath(): string {
    return this.log.logPath;
  }

  /** True while a turn runs. */
  get busy(): boolean {
    return this.running !== null;
  }

  /** The state of the running turn, when one runs. */
  get currentTurn(): TurnState | undefined {
    return this.running?.state.turn;
  }

  client(role: "main" | "fast", model: string): ModelClient {
    return this.clientFor(role, model);
  }

  fingerprint(): Promise<string> {
    return this.fingerprintOf();
  }

  checks(): readonly CheckDefinition[] {
    return this.checkList;
  }

  workingSet(): Message[] {
    return this.log.snapshot().workingSet.slice();
  }

  /**
   * Queues a host command. Commands are handled one at a time, in order; an invalid one
   * (it fails protocol's parse) is answered with a notice. Never throws.
   */
  send(command: EngineCommand): void {
    const parsed = parseEngineCommand(command);
    if (!parsed.ok) {
      void this.journal.notice(
        "error",
        "command.invalid",
        `invalid command at ${parsed.error.path || "(root)"}: ${parsed.error.message}`,
      );
      return;
    }
    this.commands = this.commands
      .then(() => this.handle(parsed.value))
      .catch((error) =>
        this.journal.notice(
          "error",
          "command.failed",
          `${parsed.value.type} failed: ${(error as Error).message}`,
        ),
      );
  }

  /** Resolves with the summary of the next turn to end. */
  nextTurnEnd(): Promise<TurnSummary> {
    return new Promise((resolve) => this.turnWaiters.push(resolve));
  }

  /** Resolves once every queued command was handled and no turn runs or waits to run. */
  async idle(): Promise<void> {
    await this.commands;
    if (!this.running && this.queue.length === 0) return;
    await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
  }

  /** Runs a background task of the session (awaited on close). */
  track(task: Promise<unknown>): void {
    this.background.add(task);
    void task.finally(() => this.background.delete(task));
  }

  private async handle(command: EngineCommand): Promise<void> {
    switch (command.type) {
      case "submit":
        this.queue.push({
          text: command.text,
          ...(command.images ? { images: command.images } : {}),
        });
        this.pump();
        return;
      case "steer":
        if (this.running) this.steering.push(command.text);
        else {
          this.queue.push({ text: command.text });
          this.pump();
        }
        return;
      case "cancel":
        this.steering.length = 0;
        this.running?.controller.abort(new UserStop("cancel"));
        return;
      case "interrupt":
        this.running?.controller.abort(new UserStop("interrupt"));
        return;
      case "resolveApproval":
        if (!this.approvals.resolve(command.approvalId, command.decision))
          await this.unknown("approval", command.approvalId);
        return;
      case "answerQuestion":
        if (!this.ext.resolveQuestion(command)) await this.unknown("question", command.questionId);
        return;
      case "resolvePlan":
        if (!this.ext.resolvePlan(command)) await this.unknown("plan", command.planId);
        return;
      case "setMode":
        return this.setMode(command.mode);
      case "setModel":
        this.model = command.model;
        return this.journal.record(
          "model",
          { model: command.model },
          { type: "modelChanged", model: command.model },
        );
      case "setEffort":
        this.effort = command.effort;
        return this.journal.record(
          "effort",
          { effort: command.effort },
          { type: "effortChanged", effort: command.effort },
        );
      case "rewind":
        if (this.running)
          return this.journal.notice(
            "warning",
            "rewind.busy",
            "rewind needs an idle session: cancel the running turn first",
          );
        return this.ext.rewind(this, command);
      case "trustWorkspace":
        return this.ext.trust(this, command.trusted);
      case "killJob":
        if (!(await this.ext.killJob(command.jobId))) await this.unknown("job", command.jobId);
        return;
    }
  }

  private unknown(what: string, id: string): Promise<void> {
    return this.journal.notice("warning", `${what}.unknown`, `no pending ${what} has the id ${id}`);
  }

  /** Runs the Notification hooks in the background (an approval, question or plan waits). */
  notify(message: string): void {
    if (!this.hooks.has("Notification")) return;
    this.track(
      this.hooks.run("Notification", { message }).then(async (hook) => {
        for (const w of hook.warnings) await this.journal.notice("warning", "hook.warning", w);
      }),
    );
  }

  /** Changes the permission mode (recorded, then modeChanged). */
  async setMode(mode: PermissionMode): Promise<void> {
    this.mode = mode;
    await this.journal.record("mode", { mode }, { type: "modeChanged", mode });
  }

  private pump(): void {
    if (this.running) return;
    const next = this.closing ? undefined : this.queue.shift();
    if (!next) {
      for (const wake of this.idleWaiters.splice(0)) wake();
      return;
    }
    const turnId = newTurnId();
    const controller = linkedController(this.lifetime.signal);
    const state: RunningTurn["state"] = {};
    this.running = { turnId, controller, state };
    const first = this.turnCount === 0;
    void runTurn(this, turnId, next, controller.signal, (turn) => {
      state.turn = turn;
    })
      .catch(async (error): Promise<TurnSummary> => {
        await this.journal.notice(
          "error",
          "engine.turnLost",
          `the turn's end could not be recorded: ${(error as Error).message}`,
        );
        return {
          turnId,
          outcome: "failed",
          reason: (error as Error).message,
          usage: this.totalUsage,
          badge: { status: "unverified", reason: "the turn failed", checks: [] },
          durationMs: 0,
        };
      })
      .then((summary) => {
        controller.release();
        this.running = null;
        if (summary.outcome !== null) this.turnCount++;
        if (first && summary.outcome !== null)
          this.track(generateTitle(this, next.text, this.lifetime.signal));
        for (const wake of this.turnWaiters.splice(0)) wake(summary);
        this.pump();
      });
  }

  /**
   * Closes the session: stops the running turn, kills its jobs, runs SessionEnd hooks and
   * closes the log. Safe to call twice.
   */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.queue.length = 0;
      this.running?.controller.abort(new UserStop("cancel"));
      await this.idle().catch(() => {});
      this.lifetime.abort(new UserStop("cancel"));
      await Promise.allSettled([...this.background]);
      await this.ext.close(this);
      this.lifetime.release();
    })();
    return this.closing;
  }
}
