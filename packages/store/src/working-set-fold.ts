import {
  applyCompaction,
  applyToolResultClearing,
  type Message,
  type MessageId,
  type ToolCallId,
} from "@z-engine/protocol";
import type { LogRecordOf } from "./records.js";

/** The records that shape the model's working set. */
export type ConversationRecord = LogRecordOf<
  "message" | "compaction" | "toolResultsCleared" | "taskView"
>;

/** A tool call of the conversation that has no result yet. */
export interface PendingToolCall {
  readonly toolCallId: ToolCallId;
  readonly toolName: string;
  /** The assistant message that made the call. */
  readonly messageId: MessageId;
}

/**
 * Folds conversation records into the model's working set, with protocol's own
 * `applyCompaction` and `applyToolResultClearing`, so that a live session that folds its
 * records here and a replay of its log send the same bytes.
 *
 * `base` is the working set without any task view; `view` is the reduced set a task view
 * chose (new messages join both). A rewind re-folds the records that came before the
 * target message, so the working set is exactly what it was before that message.
 */
export class WorkingSetFold {
  private history: ConversationRecord[] = [];
  private base: Message[] = [];
  private view: Message[] | null = null;
  /** Where `history` starts: empty, or the working set at a resume point. */
  private origin: { readonly base: readonly Message[]; readonly view: readonly Message[] | null } =
    {
      base: [],
      view: null,
    };
  private pending = new Map<string, PendingToolCall>();
  private quiet = false;
  /** The working set last handed out; reused until a record changes it. */
  private published: readonly Message[] | null = null;
  /** Problems found while folding (a task view naming a message not in the working set). */
  readonly warnings: string[] = [];

  /**
   * A fold that starts from a working set (a resume point's) instead of from nothing; a
   * rewind can move back to any message applied after it, not before.
   */
  static from(base: readonly Message[], view: readonly Message[] | null): WorkingSetFold {
    const fold = new WorkingSetFold();
    fold.origin = { base, view };
    fold.restart();
    return fold;
  }

  /** The working set without a task view, and the task view's (null when none is in force). */
  parts(): { base: Message[]; view: Message[] | null } {
    return { base: this.base.slice(), view: this.view?.slice() ?? null };
  }

  /** Applies one conversation record. */
  apply(record: ConversationRecord): void {
    this.history.push(record);
    this.published = null;
    this.fold(record);
  }

  /**
   * Moves the conversation back to just before `messageId`. Returns false (and changes
   * nothing) when no such message is in the conversation.
   */
  rewind(messageId: string): boolean {
    const at = this.history.findIndex(
      (r) => r.kind === "message" && (r.message.id as string) === messageId,
    );
    if (at < 0) return false;
    const kept = this.history.slice(0, at);
    this.history = kept;
    this.restart();
    this.quiet = true;
    for (const record of kept) this.fold(record);
    this.quiet = false;
    return true;
  }

  // Back to the origin: its messages, and its calls that have no result yet.
  private restart(): void {
    this.base = [];
    this.view = null;
    this.pending = new Map();
    this.published = null;
    for (const message of this.origin.base) this.addMessage(message);
    this.view = this.origin.view?.slice() ?? null;
  }

  /**
   * The messages to send, in order. The same array is returned until a record changes the
   * working set (then one copy is made), so reading it is cheap; it must not be mutated.
   */
  workingSet(): readonly Message[] {
    this.published ??= (this.view ?? this.base).slice();
    return this.published;
  }

  /** True when `messageId` is a message of the conversation this fold holds. */
  knows(messageId: string): boolean {
    return this.history.some((r) => r.kind === "message" && (r.message.id as string) === messageId);
  }

  /** Tool calls without a result, in call order. */
  pendingToolCalls(): PendingToolCall[] {
    return [...this.pending.values()];
  }

  /** True when a task view is in force. */
  get viewActive(): boolean {
    return this.view !== null;
  }

  private fold(record: ConversationRecord): void {
    switch (record.kind) {
      case "message":
        this.addMessage(record.message);
        return;
      case "compaction":
        this.base = applyCompaction(this.base, record.compaction);
        if (this.view) this.view = applyCompaction(this.view, record.compaction);
        return;
      case "toolResultsCleared":
        this.base = applyToolResultClearing(this.base, record.clearing);
        if (this.view) this.view = applyToolResultClearing(this.view, record.clearing);
        return;
      case "taskView":
        if (record.restored === true) this.view = null;
        else this.applyView(record.keptMessageIds, record.indexMessage);
        return;
    }
  }

  private addMessage(message: Message): void {
    this.base.push(message);
    this.view?.push(message);
    const pending = this.pending;
    if (message.role === "assistant") {
      for (const block of message.content) {
        if (block.type !== "toolUse") continue;
        pending.set(block.id, {
          toolCallId: block.id,
          toolName: block.name,
          messageId: message.id,
        });
      }
    } else if (pending.size > 0) {
      for (const block of message.content)
        if (block.type === "toolResult") pending.delete(block.toolUseId);
    }
  }

  private applyView(keptIds: readonly MessageId[], indexMessage: Message): void {
    const byId = new Map<string, Message>(this.base.map((m) => [m.id, m]));
    const view: Message[] = [indexMessage];
    for (const id of keptIds) {
      const message = byId.get(id);
      if (message) view.push(message);
      else if (!this.quiet) this.warnings.push(`task view keeps unknown message ${id}`);
    }
    this.view = view;
  }
}
