import type { PermissionRules } from "@z-engine/policy";
import {
  type CheckDefinition,
  type EngineCommand,
  type Message,
  type ModelClient,
  newTurnId,
  type PermissionMode,
  parseEngineCommand,
  type TurnId,
} from "@z-engine/protocol";
import { runTurn, type Submission, type TurnSummary } from "../run/turn.js";
import type { TurnState } from "../run/turn-state.js";
import { type LinkedController, linkedController, UserStop } from "../util/abort.js";
import type { SessionCore } from "./core.js";
import { generateTitle } from "./title.js";
import { runHook } from "../hooks/run-hook.js";

/** What `EngineSession` adds to the data it is built from (its behaviour and its own state). */
type SessionBehaviour =
  | "client"
  | "fingerprint"
  | "checks"
  | "workingSet"
  | "beginCheckpoint"
  | "sessionRules"
  | "steering";

/** Everything a session is built from (see `buildSession` in open.ts): its SessionCore data and services. */
export type SessionParts = Omit<SessionCore, SessionBehaviour> & {
  /** The engine's lifetime; the session's own cancellation hangs under it. */
  readonly parent: AbortSignal;
  turnCount: number;
  readonly clientFor: (role: "main" | "fast", model: string) => ModelClient;
  readonly fingerprintOf: () => Promise<string>;
  checkList: readonly CheckDefinition[];
};

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
  beginCheckpoint(session: EngineSession, turn: TurnState): (() => Promise<void>) | undefined;
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
// The data fields come from `SessionParts` (assigned in the constructor), so they are not
// listed twice; the class adds the actor and the behaviour.
export interface EngineSession extends SessionParts {}
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: every SessionParts field is assigned from `parts` in the constructor.
export class EngineSession implements SessionCore {
  sessionRules: PermissionRules = { allow: [], ask: [], deny: [] };
  readonly steering: string[] = [];
  readonly beginCheckpoint: (turn: TurnState) => (() => Promise<void>) | undefined;

  private readonly lifetime: LinkedController;
  private readonly queue: Array<{ readonly turnId: TurnId; readonly submission: Submission }> = [];
  private running: RunningTurn | null = null;
  private commands: Promise<void> = Promise.resolve();
  private background = new Set<Promise<unknown>>();
  private turnWaiters: Array<(summary: TurnSummary) => void> = [];
  /** Waiters for one turn's end, by the id its submit named. */
  private readonly endWaiters = new Map<TurnId, Array<(summary: TurnSummary) => void>>();
  private idleWaiters: Array<() => void> = [];
  private closing: Promise<void> | undefined;

  constructor(
    parts: SessionParts,
    private readonly ext: SessionExtensions,
  ) {
    Object.assign(this, parts);
    this.lifetime = linkedController(parts.parent);
    this.beginCheckpoint = (turn) => this.ext.beginCheckpoint(this, turn);
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
   * (it fails protocol's parse) is answered with a notice. Never throws. For a submit,
   * returns the id of the turn it starts (the command's `turnId`, else a new one).
   */
  send(command: EngineCommand): TurnId | undefined {
    const parsed = parseEngineCommand(command);
    if (!parsed.ok) {
      void this.journal.notice(
        "error",
        "command.invalid",
        `invalid command at ${parsed.error.path || "(root)"}: ${parsed.error.message}`,
      );
      return undefined;
    }
    const value =
      parsed.value.type === "submit" && !parsed.value.turnId
        ? { ...parsed.value, turnId: newTurnId() }
        : parsed.value;
    this.commands = this.commands
      .then(() => this.handle(value))
      .catch((error) =>
        this.journal.notice(
          "error",
          "command.failed",
          `${parsed.value.type} failed: ${(error as Error).message}`,
        ),
      );
    return value.type === "submit" ? value.turnId : undefined;
  }

  /** Resolves with the summary of the turn of this id once it ends (register before sending). */
  turnEnd(turnId: TurnId): Promise<TurnSummary> {
    return new Promise((resolve) => {
      const list = this.endWaiters.get(turnId) ?? [];
      list.push(resolve);
      this.endWaiters.set(turnId, list);
    });
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
          turnId: command.turnId ?? newTurnId(),
          submission: {
            text: command.text,
            ...(command.images ? { images: command.images } : {}),
          },
        });
        this.pump();
        return;
      case "steer":
        if (this.running) this.steering.push(command.text);
        else {
          this.queue.push({ turnId: newTurnId(), submission: { text: command.text } });
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
    this.track(runHook(this, "Notification", { message }));
  }

  /** Changes the permission mode (recorded, then modeChanged). */
  async setMode(mode: PermissionMode): Promise<void> {
    this.mode = mode;
    await this.journal.record("mode", { mode }, { type: "modeChanged", mode });
  }

  private pump(): void {
    if (this.running) return;
    const queued = this.closing ? undefined : this.queue.shift();
    if (!queued) {
      for (const wake of this.idleWaiters.splice(0)) wake();
      return;
    }
    const { turnId, submission: next } = queued;
    const controller = linkedController(this.lifetime.signal);
    const state: RunningTurn["state"] = {};
    this.running = { turnId, controller, state };
    const first = this.turnCount === 0;
    // A headless session titles itself from the prompt as its first turn starts, so that the
    // turn's end is its last event; others ask the fast model once the first turn ended.
    const title = () => this.track(generateTitle(this, next.text, this.lifetime.signal));
    void runTurn(this, turnId, next, controller.signal, (turn) => {
      state.turn = turn;
      if (first && this.headless) title();
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
        if (first && !this.headless && summary.outcome !== null) title();
        for (const wake of this.turnWaiters.splice(0)) wake(summary);
        for (const wake of this.endWaiters.get(turnId) ?? []) wake(summary);
        this.endWaiters.delete(turnId);
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
