import type {
  AgentContext,
  PermissionOption,
  RequestPermissionOutcome,
  RequestPermissionRequest,
  SessionUpdate,
  ToolKind,
} from "@agentclientprotocol/sdk";
import type { EngineCommand, EngineEventOf, QuestionAnswers } from "@z-engine/protocol";
import { approvalDecision, approvalOptions, OPTION } from "./permission-options.js";

/** A request this side cancelled: the engine settled it already, nothing is sent back. */
const ABORTED = Symbol("aborted");

/** What the interactions take of their session. */
export interface InteractionHost {
  readonly client: AgentContext;
  readonly sessionId: string;
  /** Sends a command to the engine session. */
  readonly send: (command: EngineCommand) => void;
  /** Sends an update now, in the session's order (through its queue). */
  readonly update: (update: SessionUpdate) => Promise<void>;
  readonly onError: (error: unknown) => void;
}

/** A question the user answers that is no tool call of the model's (a trust, a question, a plan). */
interface Card {
  readonly id: string;
  readonly title: string;
  readonly kind: ToolKind;
  readonly text: string;
  readonly options: PermissionOption[];
}

/**
 * The engine's asks as ACP permission requests: approval cards (answered in any order), the
 * model's questions (one request per question, its choices as options), plan reviews and the
 * trust of the folder. A request the engine answered meanwhile (a cancel, a hook) is cancelled
 * at the client (`$/cancel_request`); cancelling the turn cancels them all.
 */
export class Interactions {
  private readonly pending = new Map<string, AbortController>();
  /** Rules the user rejected "always" in this chat: their cards are denied without asking. */
  private readonly rejected = new Set<string>();

  constructor(private readonly host: InteractionHost) {}

  /** Asks for one approval card; the answer goes back as `resolveApproval`. Never rejects. */
  approval(e: EngineEventOf<"approvalRequested">): void {
    const rule = e.suggestedRules[0];
    if (rule && this.rejected.has(rule)) {
      this.host.send({
        type: "resolveApproval",
        approvalId: e.approvalId,
        decision: { type: "deny", feedback: `The user rejected ${rule} for this chat.` },
      });
      return;
    }
    void this.request(e.approvalId, {
      toolCall: { toolCallId: e.toolCallId, title: e.title },
      options: approvalOptions(e),
    }).then((outcome) => {
      if (outcome === ABORTED) return;
      if (rule && outcome.outcome === "selected" && outcome.optionId === OPTION.rejectAlways)
        this.rejected.add(rule);
      this.host.send({
        type: "resolveApproval",
        approvalId: e.approvalId,
        decision: approvalDecision(outcome, rule),
      });
    }, this.host.onError);
  }

  /** The model's questions, one request each; the answers go back as `answerQuestion`. */
  question(e: EngineEventOf<"questionAsked">): void {
    void this.answerAll(e).catch(this.host.onError);
  }

  /** A plan review: approve into acceptEdits or ask, or keep planning. */
  plan(e: EngineEventOf<"planProposed">): void {
    const card: Card = {
      id: `plan-${e.plan.id}`,
      title: "Ready to code?",
      kind: "switch_mode",
      text: e.plan.plan,
      options: [
        { optionId: "acceptEdits", name: "Yes, and accept edits", kind: "allow_always" },
        { optionId: "ask", name: "Yes, and ask before edits", kind: "allow_once" },
        { optionId: "keep-planning", name: "No, keep planning", kind: "reject_once" },
      ],
    };
    void this.ask(e.plan.id, card).then((choice) => {
      if (choice === ABORTED) return;
      const approved = choice === "acceptEdits" || choice === "ask";
      this.host.send({
        type: "resolvePlan",
        planId: e.plan.id,
        approved,
        ...(approved ? { mode: choice } : { feedback: "The user wants to keep planning." }),
      });
    }, this.host.onError);
  }

  /** Asks whether to trust the folder; resolves with the answer (false when cancelled). */
  async trust(projectRoot: string, withheld: readonly string[], signal: AbortSignal) {
    const card: Card = {
      id: `trust-${Date.now()}`,
      title: `Trust ${projectRoot}?`,
      kind: "other",
      text: `This folder's own settings set ${withheld.join(", ")}. An untrusted folder's settings may only add caution, so these are ignored until you trust it.`,
      options: [
        { optionId: "trust", name: "Trust this folder", kind: "allow_always" },
        { optionId: "not-now", name: "Not now", kind: "reject_once" },
      ],
    };
    const stop = () => this.pending.get(card.id)?.abort();
    signal.addEventListener("abort", stop, { once: true });
    try {
      return (await this.ask(card.id, card)) === "trust";
    } finally {
      signal.removeEventListener("abort", stop);
    }
  }

  /** The engine answered (or dismissed) an ask itself: its request at the client is cancelled. */
  settled(id: string): void {
    this.pending.get(id)?.abort();
  }

  /** Cancels every pending request (the prompt was cancelled). */
  cancelAll(): void {
    for (const controller of this.pending.values()) controller.abort();
  }

  private async answerAll(e: EngineEventOf<"questionAsked">): Promise<void> {
    const answers: QuestionAnswers = {};
    for (const [i, q] of e.question.questions.entries()) {
      const card: Card = {
        id: `${e.question.id}-${i}`,
        title: q.header ? `${q.header}: ${q.question}` : q.question,
        kind: "other",
        text: q.options
          .map((o) => `- **${o.label}**${o.description ? `: ${o.description}` : ""}`)
          .join("\n"),
        options: [
          ...q.options.map((o, j) => ({
            optionId: `choice-${j}`,
            name: o.label,
            kind: "allow_once" as const,
          })),
          { optionId: "skip", name: "Skip", kind: "reject_once" },
        ],
      };
      const choice = await this.ask(e.question.id, card);
      if (choice === ABORTED) return;
      const picked = choice?.startsWith("choice-") ? q.options[Number(choice.slice(7))] : undefined;
      answers[q.question] = picked ? picked.label : "(the user did not answer this question)";
    }
    this.host.send({ type: "answerQuestion", questionId: e.question.id, answers });
  }

  /**
   * Shows a card as a tool call of its own, asks, then closes it: the option chosen, null when
   * the client did not choose (cancelled, or the request failed), or ABORTED.
   */
  private async ask(key: string, card: Card): Promise<string | null | typeof ABORTED> {
    const content = [
      { type: "content" as const, content: { type: "text" as const, text: card.text } },
    ];
    await this.host.update({
      sessionUpdate: "tool_call",
      toolCallId: card.id,
      title: card.title,
      kind: card.kind,
      status: "pending",
      content,
    });
    const outcome = await this.request(key, {
      toolCall: { toolCallId: card.id, title: card.title },
      options: card.options,
    });
    const chosen =
      outcome === ABORTED ? ABORTED : outcome.outcome === "selected" ? outcome.optionId : null;
    await this.host.update({
      sessionUpdate: "tool_call_update",
      toolCallId: card.id,
      status: typeof chosen === "string" ? "completed" : "failed",
    });
    return chosen;
  }

  /**
   * One `session/request_permission`: the client's outcome (a failed request counts as
   * cancelled by the client), or ABORTED when this side cancelled it.
   */
  private async request(
    key: string,
    params: { toolCall: { toolCallId: string; title: string }; options: PermissionOption[] },
  ): Promise<RequestPermissionOutcome | typeof ABORTED> {
    const controller = new AbortController();
    this.pending.set(key, controller);
    try {
      const request: RequestPermissionRequest = { sessionId: this.host.sessionId, ...params };
      const response = await this.host.client.request("session/request_permission", request, {
        cancellationSignal: controller.signal,
        stopWaitingOnCancel: true,
      });
      return controller.signal.aborted ? ABORTED : response.outcome;
    } catch (error) {
      if (controller.signal.aborted) return ABORTED;
      this.host.onError(error);
      return { outcome: "cancelled" };
    } finally {
      if (this.pending.get(key) === controller) this.pending.delete(key);
    }
  }
}
