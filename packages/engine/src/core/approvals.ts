import {
  type ApprovalDecision,
  type ApprovalId,
  newApprovalId,
  type ToolCallId,
  type ToolDisplay,
  type TurnId,
} from "@z-engine/protocol";
import { Broker } from "../util/broker.js";
import type { Journal } from "../journal/journal.js";
import type { AgentId } from "@z-engine/protocol";

/** One call that needs the user's approval. */
export interface ApprovalRequest {
  readonly toolCallId: ToolCallId;
  readonly toolName: string;
  readonly title: string;
  readonly reason: string;
  readonly preview?: ToolDisplay;
  readonly suggestedRules: readonly string[];
}

/** How an approval was answered. */
export interface ApprovalAnswer {
  readonly decision: ApprovalDecision;
  readonly by: "user" | "headless" | "cancelled";
  readonly reason?: string;
}

/** The reason of a denial in headless mode (design.md §3). */
export const HEADLESS_DENIAL = "no one to ask in headless mode";

/**
 * The approval broker of a session: every ask of a batch is requested together and may be
 * answered in any order; each request and answer is recorded before its event.
 */
export class Approvals {
  private readonly broker = new Broker<ApprovalRequest, ApprovalAnswer>();

  constructor(
    private readonly journal: Pick<Journal, "record">,
    private readonly headless: boolean,
    /** Called once per batch that waits on the user (the Notification hook). */
    private readonly onWaiting: (requests: readonly ApprovalRequest[]) => void = () => {},
  ) {}

  /** Answers a pending approval; false when none has that id. */
  resolve(approvalId: string, decision: ApprovalDecision): boolean {
    return this.broker.resolve(approvalId, { decision, by: "user" });
  }

  /** Pending approvals, oldest first. */
  pending(): Array<[string, ApprovalRequest]> {
    return this.broker.pending();
  }

  /**
   * Requests every approval at once and resolves with the answers in request order.
   * Headless sessions deny at once; aborting `signal` answers what is still open as
   * cancelled. Rejects only when the log cannot be written.
   */
  async requestAll(
    requests: readonly ApprovalRequest[],
    turnId: TurnId,
    signal: AbortSignal,
    /** The subagent asking, when not the main agent: its events carry its id. */
    agentId?: AgentId,
  ): Promise<ApprovalAnswer[]> {
    const scope = { turnId, ...(agentId ? { agentId } : {}) };
    const ids = requests.map(() => newApprovalId());
    // Each wait is registered before any request is recorded and emitted: a host may answer
    // the first one while the others are still being written.
    const waits = requests.map(
      (request, i): Promise<ApprovalAnswer> =>
        this.headless
          ? Promise.resolve({ decision: { type: "deny" }, by: "headless", reason: HEADLESS_DENIAL })
          : this.broker.wait(ids[i] as ApprovalId, request, signal, () => ({
              decision: { type: "deny" },
              by: "cancelled",
              reason: "cancelled by user",
            })),
    );
    for (const [i, request] of requests.entries()) {
      const approvalId = ids[i] as ApprovalId;
      const { preview, suggestedRules, ...fields } = request;
      await this.journal.record(
        "approvalRequested",
        { approvalId, ...fields },
        {
          type: "approvalRequested",
          approvalId,
          ...fields,
          ...(preview ? { preview } : {}),
          suggestedRules: [...suggestedRules],
        },
        scope,
      );
    }
    if (!this.headless && requests.length > 0) this.onWaiting(requests);
    const answers = requests.map((request, i) => {
      const id = ids[i] as ApprovalId;
      const answer = waits[i] as Promise<ApprovalAnswer>;
      return answer.then(async (a) => {
        await this.journal.record(
          "approvalResolved",
          {
            approvalId: id,
            toolCallId: request.toolCallId,
            decision: a.decision,
            by: a.by,
            ...(a.reason ? { reason: a.reason } : {}),
          },
          {
            type: "approvalResolved",
            approvalId: id,
            toolCallId: request.toolCallId,
            decision: a.decision,
            by: a.by,
            ...(a.reason ? { reason: a.reason } : {}),
          },
          scope,
        );
        return a;
      });
    });
    return Promise.all(answers);
  }
}
