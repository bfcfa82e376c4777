import type {
  PermissionMode,
  PlanId,
  Question,
  QuestionAnswers,
  QuestionId,
  TodoItem,
} from "@z-engine/protocol";
import { newPlanId } from "@z-engine/protocol";
import type { InteractionPort, PlanReview } from "@z-engine/tools";
import { Broker } from "../util/broker.js";
import type { Journal } from "../journal/journal.js";

/** A plan review as the user answers it. */
export interface PlanAnswer {
  readonly approved: boolean;
  readonly feedback?: string;
  readonly mode?: PermissionMode;
  readonly dismissed: boolean;
}

/** What the interaction port needs from its session. */
export interface InteractionHost {
  readonly journal: Journal;
  readonly headless: boolean;
  /** Replaces the todo list in the session state: recorded, then todosUpdated. */
  setTodos(todos: readonly TodoItem[]): Promise<void>;
  /** Leaves plan mode into `mode` after an approved plan. */
  setMode(mode: PermissionMode): Promise<void>;
  /** Called when a question or plan waits on the user (the Notification hook). */
  onWaiting(message: string): void;
  /** Reports a failure that has no caller to reject (a todo update that could not be recorded). */
  onError(error: unknown): void;
}

/**
 * Questions, plans and todos through the session's brokers: a question or plan is recorded
 * and emitted, then waits for answerQuestion / resolvePlan while the session stays
 * responsive. Headless sessions have no one to answer: questions are declined and plans not
 * approved, at once.
 */
export class SessionInteraction implements InteractionPort {
  readonly questions = new Broker<Question, QuestionAnswers | null>();
  readonly plans = new Broker<string, PlanAnswer>();

  constructor(private readonly host: InteractionHost) {}

  async ask(question: Question, signal: AbortSignal): Promise<QuestionAnswers | null> {
    const { journal } = this.host;
    await journal.record("questionAsked", { question }, { type: "questionAsked", question });
    this.host.onWaiting("Z Engine has a question for you");
    const answers = this.host.headless
      ? null
      : await this.questions.wait(question.id, question, signal, () => null);
    const fields = {
      questionId: question.id as QuestionId,
      answers: answers ?? {},
      dismissed: answers === null,
    };
    await journal.record("questionAnswered", fields, { type: "questionAnswered", ...fields });
    return answers;
  }

  async proposePlan(plan: string, signal: AbortSignal): Promise<PlanReview> {
    const { journal } = this.host;
    const id = newPlanId();
    await journal.record(
      "planProposed",
      { plan: { id, plan } },
      { type: "planProposed", plan: { id, plan } },
    );
    this.host.onWaiting("Z Engine proposes a plan for review");
    const answer: PlanAnswer = this.host.headless
      ? { approved: false, feedback: "no one to review the plan in headless mode", dismissed: true }
      : await this.plans.wait(id, plan, signal, () => ({ approved: false, dismissed: true }));
    const fields = {
      planId: id as PlanId,
      approved: answer.approved,
      dismissed: answer.dismissed,
      ...(answer.feedback ? { feedback: answer.feedback } : {}),
    };
    await journal.record("planResolved", fields, { type: "planResolved", ...fields });
    if (answer.approved) await this.host.setMode(answer.mode ?? "acceptEdits");
    return { approved: answer.approved, ...(answer.feedback ? { feedback: answer.feedback } : {}) };
  }

  updateTodos(todos: readonly TodoItem[]): void {
    this.host.setTodos(todos).catch((error) => this.host.onError(error));
  }
}
