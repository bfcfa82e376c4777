import type { CheckId, CheckKind, ContentBlock, Message, TurnId } from "@z-engine/protocol";
import type { AgentRun } from "../core/agent-context.js";
import type { SessionCore } from "../core/session-core.js";
import { type DecisionHost, decisionsOf } from "./session-hub.js";
import { offerSuggestion } from "./suggestions.js";

/** The stop seam may continue a run at most this often per turn (architecture.md step 4). */
export const MAX_DECISION_CONTINUATIONS = 1;

/** What the stop seams need of a turn. */
export interface SeamTurn {
  readonly turnId: TurnId;
  readonly signal: AbortSignal;
  readonly startedAt: number;
  readonly writtenPaths: ReadonlySet<string>;
}

const continued = new WeakMap<SeamTurn, number>();

/** The text of the last assistant message of `messages`: the final answer at a stop. */
export function finalAnswer(messages: readonly Message[]): string {
  const last = messages.findLast((m) => m.role === "assistant");
  return (last?.content ?? []).map((b) => (b.type === "text" ? b.text : "")).join("");
}

const checksSince = (core: Pick<SessionCore, "checkRecords">, turn: SeamTurn, kind?: CheckKind) =>
  core.checkRecords.filter((r) => r.startedAt >= turn.startedAt && (!kind || r.kind === kind))
    .length;

const KIND: Record<string, CheckKind | undefined> = {
  tests: "test",
  build: "build",
  typecheck: "typecheck",
};

type Stop =
  | { readonly end: true; readonly reason?: string }
  | { readonly end: false; readonly continueWith: ContentBlock[] };

/**
 * The stop and completion seams, once verification is done and the run would end: the stop
 * seam (stop_reminder) may continue the run once per turn with a reminder; otherwise the
 * completion seam (completion_claim) reports a claim no check of this turn backs with
 * `completionClaimUnchecked`. A decision that does not end the run is returned as it is.
 * Never rejects.
 */
export async function decideAtStop(
  core: DecisionHost & Pick<SessionCore, "checkRecords">,
  run: Pick<AgentRun, "depth" | "transcript">,
  turn: SeamTurn,
  stop: Stop,
): Promise<Stop> {
  if (!stop.end || turn.signal.aborted || run.depth > 0) return stop;
  const hub = decisionsOf(core);
  const atStop = hub.joins("stopBoundary");
  if (!atStop && !hub.joins("completion")) return stop;
  const answer = finalAnswer(run.transcript.workingSet());
  const checksThisTurn = checksSince(core, turn);
  const scope = { signal: turn.signal, turnId: turn.turnId };
  const used = continued.get(turn) ?? 0;
  if (atStop && used < MAX_DECISION_CONTINUATIONS) {
    const input = { answer, filesChanged: turn.writtenPaths.size > 0, checksThisTurn };
    const [advice] = await hub.consult("stopBoundary", input, scope);
    if (advice) {
      continued.set(turn, used + 1);
      return { end: false, continueWith: [{ type: "text", text: advice.reminder }] };
    }
  }
  if (hub.joins("completion")) {
    const [claim] = await hub.consult("completion", { answer, checksThisTurn }, scope);
    const kind = claim ? KIND[claim.kind] : undefined;
    if (claim && checksSince(core, turn, kind) === 0)
      core.journal.emit(
        {
          type: "completionClaimUnchecked",
          claim: { turnId: turn.turnId, text: claim.claim, kind: claim.kind },
        },
        { turnId: turn.turnId },
      );
  }
  return stop;
}

/**
 * The check-select seam: the automatic checks to run, without those the uses name as unable
 * to cover the changed paths (never all of them). Returns `ids` itself when no use runs.
 */
export async function selectChecks(
  core: DecisionHost,
  turn: SeamTurn,
  ids: readonly CheckId[],
): Promise<readonly CheckId[]> {
  const hub = decisionsOf(core);
  if (ids.length < 2 || !hub.joins("checkSelect")) return ids;
  const input = { changedPaths: [...turn.writtenPaths], checkIds: ids };
  const advice = await hub.consult("checkSelect", input, {
    signal: turn.signal,
    turnId: turn.turnId,
  });
  const skip = new Set(advice.flatMap((a) => a.skip));
  const kept = ids.filter((id) => !skip.has(id));
  return kept.length > 0 ? kept : ids;
}

/** One item waiting for the person at the screen, as the attention seam scores it. */
interface AttentionItem {
  readonly item: string;
  readonly kind: "approval" | "notice";
  readonly text: string;
}

function score(core: DecisionHost, items: readonly AttentionItem[], turnId?: TurnId): void {
  const hub = decisionsOf(core);
  if (items.length === 0 || !hub.joins("attention")) return;
  const scope = turnId ? { turnId } : {};
  for (const input of items)
    void hub.consult("attention", input, scope).then(([advice]) => {
      if (advice)
        core.journal.emit(
          { type: "urgencyScored", urgency: { item: input.item, ...advice } },
          scope,
        );
    });
}

/**
 * The attention seam, in the background: each waiting approval (id and request) is scored,
 * and `urgencyScored` reports the level. Returns at once; never rejects.
 */
export function scoreAttention(
  core: DecisionHost,
  waiting: readonly (readonly [string, { readonly title: string; readonly reason: string }])[],
  turnId: TurnId,
): void {
  const items = waiting.map(([item, request]) => ({
    item,
    kind: "approval" as const,
    text: `${request.title}: ${request.reason}`,
  }));
  score(core, items, turnId);
}

/**
 * The attention seam for a warning or error notice, in the background: `urgencyScored` with
 * item `notice:<code>`. Info notices are not scored, nor the decision layer's own
 * (`decisions.*`: a failing sidecar must not be asked about itself). Returns at once; never
 * rejects.
 */
export function scoreNotice(
  core: DecisionHost,
  notice: { readonly level: string; readonly code: string; readonly message: string },
  turnId?: TurnId,
): void {
  if (notice.level === "info" || notice.code.startsWith("decisions.")) return;
  const text = `${notice.level} ${notice.code}: ${notice.message.slice(0, 500)}`;
  score(core, [{ item: `notice:${notice.code}`, kind: "notice", text }], turnId);
}

/**
 * The turn-end seam, in the background: a tone use judges the finished turn
 * (`turnToneJudged`), a review use may offer a review card for the files it changed
 * (`suggested`). Returns at once; never rejects.
 */
export function judgeTurn(
  core: DecisionHost & Pick<SessionCore, "workingSet">,
  turnId: TurnId,
  prompt: string,
  changedPaths: readonly string[] = [],
): void {
  const hub = decisionsOf(core);
  if (!hub.joins("turnEnd")) return;
  const answer = finalAnswer(core.workingSet());
  const input = { prompt, answer, changedPaths };
  void hub.consult("turnEnd", input, { turnId }).then((advice) => {
    const tone = advice.find((a) => a.tone)?.tone;
    if (tone) core.journal.emit({ type: "turnToneJudged", turnId, tone }, { turnId });
    for (const a of advice) if (a.suggestion) offerSuggestion(core, a.suggestion, turnId);
  });
}
