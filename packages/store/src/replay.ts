import {
  addUsage,
  type CheckpointInfo,
  type CheckRecord,
  emptyUsage,
  type Message,
  type Usage,
} from "@z-engine/protocol";
import { type LogRecord, type LogRecordKind, type LogRecordOf, logRecord } from "./records.js";
import type { Replay, ReplayState, TranscriptRecord } from "./replay-types.js";
import { OpenItems, resumeReportOf } from "./open-items.js";
import { WorkingSetFold } from "./working-set-fold.js";

const HIDDEN = new Set<LogRecordKind>([
  "session",
  "usage",
  "rewind",
  "toolResultsCleared",
  "mode",
  "model",
  "effort",
  "title",
  "resumePoint",
]);

/** Options of {@link ReplayFold}. */
export interface ReplayFoldOptions {
  /**
   * Start over at each `resumePoint` record: forget the transcript and the conversation
   * history before it (they stay in the log), keeping state, usage and the working set. The
   * file session folds this way, so its memory follows the working set, not the log.
   */
  readonly rebase?: boolean;
}

/**
 * Folds records one at a time; `snapshot()` reads the result at any point. The session
 * handle folds every record it appends here too, so the live state and a later replay
 * agree. Folding restores state only; it never performs a side effect.
 */
export class ReplayFold {
  private conversation = new WorkingSetFold();
  private transcript: TranscriptRecord[] = [];
  /** Messages and turns in the transcript, those before a resume point included. */
  private messages = 0;
  private turns = 0;
  private earlier = false;
  private missed = false;
  private readonly rebase: boolean;
  private readonly warnings: string[] = [];
  private total: Usage = emptyUsage();
  private s: Mutable<ReplayState> = initialState();
  private readonly open = new OpenItems();
  private readonly checks: CheckRecord[] = [];
  private readonly checkpoints: CheckpointInfo[] = [];

  constructor(options: ReplayFoldOptions = {}) {
    this.rebase = options.rebase === true;
  }

  /**
   * A fold that starts at a resume point (the records before it are not read): its state,
   * usage and working set are the point's; its transcript starts empty (`earlierHistory`).
   */
  static fromResumePoint(
    point: LogRecordOf<"resumePoint">,
    options?: ReplayFoldOptions,
  ): ReplayFold {
    const fold = new ReplayFold(options);
    fold.restore(point);
    return fold;
  }

  /**
   * True when a rewind named a message this fold no longer holds (it lies before the resume
   * point it started from): only a fold of the whole log gives the right working set.
   */
  get missedHistory(): boolean {
    return this.missed;
  }

  /** Applies one record. Never throws. */
  apply(record: LogRecord): void {
    if (this.s.createdAt === 0) this.s.createdAt = record.ts;
    this.s.updatedAt = Math.max(this.s.updatedAt, record.ts);
    if (record.kind === "resumePoint") {
      if (this.rebase) this.restore(record);
      return;
    }
    if (!HIDDEN.has(record.kind)) {
      this.transcript.push(record as TranscriptRecord);
      if (record.kind === "message") this.messages++;
      else if (record.kind === "turnStarted") this.turns++;
    }
    this.applyConversation(record);
    this.applyState(record);
  }

  /** The fold now, as a `resumePoint` record (written after a compaction). */
  resumePoint(ts?: number): LogRecordOf<"resumePoint"> {
    const { base, view } = this.conversation.parts();
    const state = this.state() as unknown as LogRecordOf<"resumePoint">["state"];
    return logRecord("resumePoint", { base, view, state, totalUsage: { ...this.total } }, ts);
  }

  private restore(point: LogRecordOf<"resumePoint">): void {
    const state = point.state as unknown as ReplayState;
    this.conversation = WorkingSetFold.from(point.base, point.view);
    this.transcript = [];
    this.earlier = true;
    this.total = { ...point.totalUsage };
    this.messages = state.messageCount;
    this.turns = state.turnCount;
    const { checks, checkpoints } = state;
    this.s = { ...state, todos: state.todos.slice() };
    this.open.restore(state);
    this.checks.splice(0, this.checks.length, ...checks);
    this.checkpoints.splice(0, this.checkpoints.length, ...checkpoints);
  }

  /** The working set so far: cheap, the same array until a record changes it (see `WorkingSetFold`). */
  workingSet(): readonly Message[] {
    return this.conversation.workingSet();
  }

  private state(): ReplayState {
    return {
      ...this.s,
      todos: this.s.todos.slice(),
      ...this.open.lists(),
      checks: this.checks.slice(),
      checkpoints: this.checkpoints.slice(),
      messageCount: this.messages,
      turnCount: this.turns,
    };
  }

  /** The replay so far (arrays are copies). */
  snapshot(): Replay {
    const state = this.state();
    return {
      earlierHistory: this.earlier,
      transcript: this.transcript.slice(),
      workingSet: this.conversation.workingSet(),
      state,
      totalUsage: { ...this.total },
      resume: resumeReportOf(state, this.conversation.pendingToolCalls()),
      warnings: [...this.warnings, ...this.conversation.warnings],
    };
  }

  private applyConversation(record: LogRecord): void {
    switch (record.kind) {
      case "message":
      case "compaction":
      case "toolResultsCleared":
      case "taskView":
        this.conversation.apply(record);
        return;
      case "rewind":
        // A code-only rewind restores files; the conversation stays where it is.
        if (record.restore !== "code") this.rewind(record.messageId);
        return;

      case "usage":
        this.total = addUsage(this.total, record.usage);
        return;
      default:
        return;
    }
  }

  private rewind(messageId: string): void {
    if (!this.conversation.rewind(messageId)) {
      // The target may lie before the resume point: only the whole log can tell.
      if (this.earlier) this.missed = true;
      else this.warnings.push(`rewind to unknown message ${messageId} ignored`);
      return;
    }
    const cut = this.transcript.findIndex(
      (r) =>
        (r.kind === "message" && r.message.id === messageId) ||
        (r.kind === "turnStarted" && r.userMessageId === messageId),
    );
    if (cut < 0) return;
    for (const r of this.transcript.slice(cut)) {
      if (r.kind === "message") this.messages--;
      else if (r.kind === "turnStarted") this.turns--;
    }
    this.transcript = this.transcript.slice(0, cut);
  }

  private applyState(record: LogRecord): void {
    const s = this.s;
    switch (record.kind) {
      case "session":
        s.sessionId = record.sessionId;
        s.projectRoot = record.projectRoot;
        s.legacyFile = record.legacyFile ?? null;
        return;
      case "title":
        s.title = record.title;
        return;
      case "mode":
        s.mode = record.mode;
        return;
      case "model":
        s.model = record.model;
        return;
      case "effort":
        s.effort = record.effort;
        return;
      case "todos":
        s.todos = record.todos;
        return;
      case "turnStarted":
        s.lastTurn = { turnId: record.turnId, status: "running" };
        return;
      case "turnEnded":
        s.lastTurn = { turnId: record.turnId, status: "ended", outcome: record.outcome };
        return;
      case "check":
        this.checks.push(record.record);
        return;
      case "checkpoint":
        this.checkpoints.push(record.checkpoint);
        return;
      default:
        this.open.apply(record);
    }
  }
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

function initialState(): Mutable<ReplayState> {
  return {
    sessionId: null,
    projectRoot: null,
    legacyFile: null,
    title: null,
    mode: null,
    model: null,
    effort: null,
    todos: [],
    openQuestions: [],
    openPlans: [],
    openApprovals: [],
    runningAgents: [],
    lastTurn: null,
    checks: [],
    checkpoints: [],
    createdAt: 0,
    updatedAt: 0,
    messageCount: 0,
    turnCount: 0,
  };
}

export type {
  LastTurn,
  Replay,
  ResumeReport,
  ReplayState,
  TranscriptRecord,
} from "./replay-types.js";

/** Folds a whole log into its replay. Never throws. */
export function replay(records: Iterable<LogRecord>): Replay {
  const fold = new ReplayFold();
  for (const record of records) fold.apply(record);
  return fold.snapshot();
}
