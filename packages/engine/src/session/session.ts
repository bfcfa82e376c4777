import type { PermissionRules } from "@z-engine/policy";
import {
  type CheckDefinition,
  type Effort,
  type EngineCommand,
  type JobId,
  emptyUsage,
  type Message,
  type ModelClient,
  newTurnId,
  type PermissionMode,
  parseEngineCommand,
  type TodoItem,
  type TurnId,
  type Usage,
} from "@z-engine/protocol";
import type { HookRunner } from "../hooks/runner.js";
import type { SessionConfig } from "../settings/session-config.js";
import { runTurn, type Submission, type TurnSummary } from "../run/turn.js";
import type { TurnState } from "../core/turn-state.js";
import { type LinkedController, linkedController, UserStop } from "../util/abort.js";
import { resolveSuggestion } from "../commands/suggestion-command.js";
import { includeFullHistory } from "../decisions/task-view.js";
import type { SessionCore } from "../core/session-core.js";
import { generateTitle } from "./title.js";
import type { SessionLsp } from "../lsp/hub.js";
import type { SessionInteraction } from "../ports/interaction.js";
import type { SessionJobs } from "../ports/jobs.js";
import type { BackgroundTasks } from "./background.js";
import type { TurnCheckpoints } from "./checkpoint.js";
import { rewindSession } from "./rewind.js";
import type { CommandResult } from "../commands/result.js";
import { parseSlashPrompt, runCommand } from "../commands/run.js";
import { runHook } from "../hooks/run-hook.js";
import { stopSessionAgent } from "../agents/stop-agent.js";

/** What `EngineSession` adds to the data it is built from (its behaviour and its own state). */
type SessionBehaviour =
  | "client"
  | "fingerprint"
  | "checks"
  | "workingSet"
  | "beginCheckpoint"
  | "steering"
  | StateView;

/** The members that read the session's state (`SessionState`). */
type StateView =
  | "trusted"
  | "config"
  | "mode"
  | "model"
  | "effort"
  | "todos"
  | "totalUsage"
  | "sessionRules"
  | "additionalDirectories"
  | "hooks";

/** How long close waits for the stopped turn before it kills the session's git calls. */
const CLOSE_GRACE_MS = 3_000;

/** Everything a session is built from (see `buildSession` in open.ts): its SessionCore data and services. */
export type SessionParts = Omit<SessionCore, SessionBehaviour> & {
  /**
   * The session's lifetime, linked under the engine's: aborted on close (after the running
   * turn stopped), which also stops the background git calls of its checkpoint store.
   */
  readonly lifetime: LinkedController;
  turnCount: number;
  /** The session had a title when it opened (a fork's copy): its first turn does not retitle it. */
  readonly titled: boolean;
  readonly clientFor: (role: "main" | "fast", model: string) => ModelClient;
  /** The user's config folder (user commands and skills, `/remember --user`). */
  readonly userConfigDir: string;
  readonly fingerprintOf: () => Promise<string>;
};

/** The session's own services beside its core: ports to answer, checkpoints, trust, background work. */
export interface SessionServices {
  readonly interaction: SessionInteraction;
  readonly jobs: SessionJobs;
  readonly lsp: SessionLsp;
  readonly checkpoints: TurnCheckpoints;
  readonly background: BackgroundTasks;
  /** Runs the Notification hooks in the background. */
  readonly notify: (message: string) => void;
  /** trustWorkspace: reloads the settings as trusted (true) or dismisses the request (false). */
  readonly trust: (trusted: boolean) => Promise<void>;
}

interface RunningTurn {
  readonly turnId: string;
  readonly controller: LinkedController;
  readonly state: { turn?: TurnState };
  /** Settles once the turn's task is over and `running` was cleared. */
  done?: Promise<void>;
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
  readonly steering: string[] = [];
  readonly beginCheckpoint: (turn: TurnState) => (() => Promise<void>) | undefined;

  private readonly queue: Array<{ readonly turnId: TurnId; readonly submission: Submission }> = [];
  private running: RunningTurn | null = null;
  private commands: Promise<void> = Promise.resolve();
  private turnWaiters: Array<(summary: TurnSummary) => void> = [];
  /** Waiters for one turn's end, by the id its submit named. */
  private readonly endWaiters = new Map<TurnId, Array<(summary: TurnSummary) => void>>();
  private idleWaiters: Array<() => void> = [];
  private closing: Promise<void> | undefined;

  constructor(
    parts: SessionParts,
    private readonly services: SessionServices,
  ) {
    Object.assign(this, parts);
    this.beginCheckpoint = (turn) => this.services.checkpoints.begin(this, turn);
  }

  get trusted(): boolean {
    return this.state.settings.trusted;
  }
  get config(): SessionConfig {
    return this.state.settings.config;
  }
  get additionalDirectories(): readonly string[] {
    return this.state.settings.additionalDirectories;
  }
  get hooks(): HookRunner {
    return this.state.settings.hooks;
  }
  get mode(): PermissionMode {
    return this.state.mode;
  }
  get model(): string {
    return this.state.model;
  }
  get effort(): Effort | undefined {
    return this.state.effort;
  }
  get todos(): readonly TodoItem[] {
    return this.state.todos;
  }
  get totalUsage(): Usage {
    return this.state.totalUsage;
  }
  get sessionRules(): PermissionRules {
    return this.state.sessionRules;
  }

  /** The log's path (hooks get it as `transcript_path`); empty when the store keeps no file. */
  get logPath(): string {
    return this.log.transcriptPath ?? "";
  }

  /** True while a turn runs. */
  get busy(): boolean {
    return this.running !== null;
  }

  /** The session's lifetime signal, for work a command starts. */
  queuePrompt(text: string): void {
    this.queue.push({ turnId: newTurnId(), submission: { text } });
    this.pump();
  }

  get commandSignal(): AbortSignal {
    return this.lifetime.signal;
  }

  /** The instruction files changed (`/remember`): the next turn re-reads them. */
  reloadInstructions(): void {
    this.definitions?.markStale();
  }

  /** Queues a turn, like a submit (a prompt command's). */
  enqueue(turnId: TurnId, submission: Submission): void {
    this.queue.push({ turnId, submission });
    this.pump();
  }

  /**
   * Runs a slash command in the command order and resolves with what it did; for a prompt
   * command, once its turn ended (with the turn's summary). Rejects only when the log fails.
   */
  async command(name: string, args: string): Promise<CommandResult> {
    const turnId = newTurnId();
    const end = this.turnEnd(turnId);
    const ran = this.commands.then(() => runCommand(this, name, args, turnId));
    this.commands = ran.then(
      () => {},
      () => {},
    );
    const result = await ran.finally(() => {
      if (!this.queue.some((q) => q.turnId === turnId) && this.running?.turnId !== turnId)
        this.endWaiters.delete(turnId);
    });
    return result.type === "turn" ? { type: "turn", name, summary: await end } : result;
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
    return this.state.settings.checks;
  }

  workingSet(): Message[] {
    return this.log.workingSet().slice();
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
    this.services.background.track(task);
  }

  private async handle(command: EngineCommand): Promise<void> {
    switch (command.type) {
      case "runCommand":
        return this.slash(command.name, command.args, command.turnId ?? newTurnId());
      case "submit": {
        const slash = parseSlashPrompt(command.text);
        if (slash && !command.images)
          return this.slash(slash.name, slash.args, command.turnId ?? newTurnId());
        this.queue.push({
          turnId: command.turnId ?? newTurnId(),
          submission: {
            text: command.text,
            ...(command.images ? { images: command.images } : {}),
          },
        });
        this.pump();
        return;
      }
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
        if (!this.services.interaction.questions.resolve(command.questionId, command.answers))
          await this.unknown("question", command.questionId);
        return;
      case "resolvePlan":
        if (!this.resolvePlan(command)) await this.unknown("plan", command.planId);
        return;
      case "setMode":
        return this.setMode(command.mode);
      case "setModel":
        return this.state.setModel(command.model);
      case "setEffort":
        return this.state.setEffort(command.effort);
      case "rewind":
        // A host that saw turnFinished may rewind at once: wait out the turn's last flush.
        if (this.running?.state.turn?.ended) await this.running.done;
        if (this.running)
          return this.journal.notice(
            "warning",
            "rewind.busy",
            "rewind needs an idle session: cancel the running turn first",
          );
        return rewindSession(this, command.messageId, command.restore);
      case "trustWorkspace":
        return this.services.trust(command.trusted);
      case "killJob":
        if ((await this.services.jobs.kill(command.jobId as JobId)) === null)
          await this.unknown("job", command.jobId);
        return;
      case "stopAgent": {
        const target = command.agentId
          ? { agentId: command.agentId }
          : { toolCallId: command.toolCallId ?? "" };
        // The stop is given now; its run's end is not waited for here, so a cancel sent next is
        // not held behind an agent slow to stop.
        void stopSessionAgent(this.ports, target).then((outcome) =>
          outcome.stopped
            ? undefined
            : this.journal.notice("warning", "agent.unknown", outcome.reason),
        );
        return;
      }
      case "includeFullHistory":
        return includeFullHistory(this);
      case "resolveSuggestion": {
        const said = await resolveSuggestion(this, command.suggestionId, command.accepted);
        if (said === undefined) return this.unknown("suggestion", command.suggestionId);
        this.journal.emit({ type: "commandOutput", name: "suggestion", markdown: said });
        return;
      }
    }
  }

  /** Runs a command from `send`; a waiter on its turn id is answered even when no turn runs. */
  private async slash(name: string, args: string, turnId: TurnId): Promise<void> {
    const ran = await runCommand(this, name, args, turnId);
    if (ran.type === "turn") return;
    const summary: TurnSummary = {
      turnId,
      outcome: null,
      reason: ran.type === "output" ? `/${name} ran without a turn` : ran.message,
      usage: emptyUsage(),
      badge: { status: "notApplicable", reason: "no turn ran", checks: [] },
      durationMs: 0,
    };
    for (const wake of this.endWaiters.get(turnId) ?? []) wake(summary);
    this.endWaiters.delete(turnId);
  }

  /** Drops the queued turns; a waiter on one is answered that it never ran. */
  private dropQueued(reason: string): void {
    for (const { turnId } of this.queue.splice(0)) {
      const summary: TurnSummary = {
        turnId,
        outcome: null,
        reason,
        usage: emptyUsage(),
        badge: { status: "notApplicable", reason: "no turn ran", checks: [] },
        durationMs: 0,
      };
      for (const wake of this.endWaiters.get(turnId) ?? []) wake(summary);
      this.endWaiters.delete(turnId);
    }
  }

  private unknown(what: string, id: string): Promise<void> {
    return this.journal.notice("warning", `${what}.unknown`, `no pending ${what} has the id ${id}`);
  }

  private resolvePlan(command: Extract<EngineCommand, { type: "resolvePlan" }>): boolean {
    return this.services.interaction.plans.resolve(command.planId, {
      approved: command.approved,
      dismissed: false,
      ...(command.feedback ? { feedback: command.feedback } : {}),
      ...(command.mode ? { mode: command.mode } : {}),
    });
  }

  /** Runs the Notification hooks in the background (an approval, question or plan waits). */
  notify(message: string): void {
    this.services.notify(message);
  }

  /** Changes the permission mode (recorded, then modeChanged). */
  setMode(mode: PermissionMode): Promise<void> {
    return this.state.setMode(mode);
  }

  private pump(): void {
    if (this.running) return;
    // Closing: a turn queued meanwhile (a submit still in the command chain) never runs.
    if (this.closing) this.dropQueued("the session closed before the turn ran");
    const queued = this.queue.shift();
    if (!queued) {
      for (const wake of this.idleWaiters.splice(0)) wake();
      return;
    }
    const { turnId, submission: next } = queued;
    const controller = linkedController(this.lifetime.signal);
    const state: RunningTurn["state"] = {};
    const running: RunningTurn = { turnId, controller, state };
    this.running = running;
    const first = this.turnCount === 0 && !this.titled;
    // A headless session titles itself from the prompt as its first turn starts, so that the
    // turn's end is its last event; others ask the fast model once the first turn ended.
    const title = () => this.track(generateTitle(this, next.text, this.lifetime.signal));
    running.done = runTurn(this, turnId, next, controller.signal, (turn) => {
      state.turn = turn;
      this.state.setCurrentTurn(turn);
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
        this.state.setCurrentTurn(undefined);
        this.liveSettings?.afterTurn();
        if (summary.outcome !== null) this.turnCount++;
        if (first && !this.headless && summary.outcome !== null) title();
        for (const wake of this.turnWaiters.splice(0)) wake(summary);
        for (const wake of this.endWaiters.get(turnId) ?? []) wake(summary);
        this.endWaiters.delete(turnId);
        this.queueLateSteering(summary);
        this.pump();
      });
  }

  /**
   * Steering that arrived after a completed run's last stop boundary (a UI that still showed
   * the turn running sent it) would otherwise wait, unseen, for whatever the user sends next:
   * it becomes the next turn, ahead of any queued one. After an interrupt it stays for the
   * next turn (the user stopped the work on purpose); a cancel has already dropped it.
   */
  private queueLateSteering(summary: TurnSummary): void {
    if (summary.outcome !== "completed" || this.steering.length === 0 || this.closing) return;
    const text = this.steering.splice(0).join("\n\n");
    this.queue.unshift({ turnId: newTurnId(), submission: { text } });
  }

  /**
   * Closes the session: stops the running turn, kills its jobs, runs SessionEnd hooks and
   * closes the log, even when a step before it failed (that failure is the close's). Safe to
   * call twice.
   */
  close(): Promise<void> {
    this.closing ??= this.stopAll().finally(() => this.closeLog());
    return this.closing;
  }

  /**
   * Closes the log whatever came before, and detaches from the engine. A log the store cannot
   * flush or close (EIO at the last fsync) is a warning, not a failed close: the session ended,
   * its lock is gone, only its last records may not survive a crash.
   */
  private async closeLog(): Promise<void> {
    try {
      await this.log.close();
    } catch (error) {
      await this.journal.notice(
        "warning",
        "store.closeFailed",
        `the session log could not be closed cleanly: ${(error as Error).message}; its last records may not survive a crash`,
      );
    } finally {
      this.lifetime.release();
    }
  }

  /** Stops the turn, the jobs, the servers and the hooks: everything but the log. */
  private async stopAll(): Promise<void> {
    this.liveSettings?.close();
    this.dropQueued("the session closed before the turn ran");
    this.running?.controller.abort(new UserStop("cancel"));
    // A turn waiting on git (a snapshot blocked on a FIFO the project swapped in) does not
    // see the cancel: past a grace, the lifetime's abort kills the session's git calls.
    const grace = setTimeout(() => this.lifetime.abort(new UserStop("cancel")), CLOSE_GRACE_MS);
    await this.idle().catch(() => {});
    clearTimeout(grace);
    this.lifetime.abort(new UserStop("cancel"));
    await this.services.background.settled();
    await runHook(this, "SessionEnd", { reason: "exit" });
    await this.repoMap?.close();
    await Promise.all([
      this.services.jobs.killAll(),
      this.services.lsp.close(),
      this.mcp.close(),
      this.services.checkpoints.settled(),
    ]);
  }
}
