import type { EngineEventOf, EventEnvelope, Plan, Question } from "@z-engine/protocol";

/** An approval as the inbox shows it (the event without its type). */
export type InboxApproval = Omit<EngineEventOf<"approvalRequested">, "type">;

/** Something waiting on the user in an open session: an approval, a question or a plan. */
export type InboxItem = {
  readonly sessionId: string;
  /** The subagent that asked, when one did. */
  readonly agentId?: string;
  /** When it arrived (the envelope's time). */
  readonly at: number;
} & (
  | { readonly kind: "approval"; readonly id: string; readonly approval: InboxApproval }
  | { readonly kind: "question"; readonly id: string; readonly question: Question }
  | { readonly kind: "plan"; readonly id: string; readonly plan: Plan }
);

/** What one session has waiting, folded from its events. */
export class PendingItems {
  private readonly items = new Map<string, InboxItem>();

  constructor(private readonly sessionId: string) {}

  /** The items in arrival order. */
  list(): InboxItem[] {
    return [...this.items.values()];
  }

  /** Folds one event in; true when the waiting items changed. */
  apply(envelope: EventEnvelope): boolean {
    const e = envelope.event;
    const base = {
      sessionId: this.sessionId,
      at: envelope.ts,
      ...(envelope.agentId ? { agentId: envelope.agentId } : {}),
    };
    switch (e.type) {
      case "approvalRequested": {
        const { type: _t, ...approval } = e;
        this.items.set(`a:${e.approvalId}`, {
          ...base,
          kind: "approval",
          id: e.approvalId,
          approval,
        });
        return true;
      }
      case "questionAsked":
        this.items.set(`q:${e.question.id}`, {
          ...base,
          kind: "question",
          id: e.question.id,
          question: e.question,
        });
        return true;
      case "planProposed":
        this.items.set(`p:${e.plan.id}`, { ...base, kind: "plan", id: e.plan.id, plan: e.plan });
        return true;
      case "approvalResolved":
        return this.items.delete(`a:${e.approvalId}`);
      case "questionAnswered":
        return this.items.delete(`q:${e.questionId}`);
      case "planResolved":
        return this.items.delete(`p:${e.planId}`);
      case "turnFinished": {
        // A turn's end answers whatever of it still waited (cancelled, failed).
        const before = this.items.size;
        for (const [key, item] of this.items) if (item.kind === "approval") this.items.delete(key);
        return this.items.size !== before;
      }
      default:
        return false;
    }
  }
}
