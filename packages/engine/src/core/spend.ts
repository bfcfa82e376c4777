import {
  addUsage,
  type AgentId,
  type ModelClient,
  type ModelEvent,
  type ModelRequest,
  type SpendSource,
  type StreamOptions,
  type TokenUsage,
  type ToolCallId,
  type TurnId,
  type Usage,
} from "@z-engine/protocol";
import type { SessionCore } from "./session-core.js";
import type { TurnState } from "./turn-state.js";

/** What accounting spend takes of its session: the catalog's prices, the total (its state) and the caps. */
export type SpendCore = Pick<SessionCore, "catalog" | "state" | "config">;

/** The part of a turn that spend adds to: its usage, until it ended. */
export type SpendTurn = Pick<TurnState, "turnId" | "usage" | "ended">;

/**
 * Who spent a model call's tokens, on what. The turn's usage grows by the call's (until the
 * turn ended: its `turnFinished` is out); the usage record names the turn, the agent (a
 * subagent's id), the source (absent: an agent's own round) and the tool call that caused it.
 */
export interface SpendAttribution {
  readonly source?: SpendSource;
  readonly turn?: SpendTurn;
  /** The turn named when no turn state is at hand (`turn` wins). */
  readonly turnId?: TurnId;
  readonly agentId?: AgentId;
  readonly toolName?: string;
  readonly toolCallId?: ToolCallId;
}

/**
 * The one accounting function of model spend, main and fast alike: prices `tokens` with the
 * catalog (settings' `[pricing]`, else the catalog, else llm's table), adds the price to the
 * turn's usage and, through a `usage` record and `costUpdated`, to the session's total.
 * Spends nothing (no record) for a call that used no tokens. `priced` is the catalog's price
 * when the caller already took it (for its own event). Resolves with the priced usage;
 * rejects only when the log refuses the record (the totals have grown already).
 */
export async function recordSpend(
  core: Pick<SessionCore, "catalog" | "state">,
  model: string,
  tokens: TokenUsage,
  who: SpendAttribution,
  priced?: Usage,
): Promise<Usage> {
  const usage = priced ?? core.catalog.price(model, tokens);
  if (tokens.input + tokens.output + tokens.cacheRead + tokens.cacheWrite === 0) return usage;
  const turn = who.turn;
  if (turn && !turn.ended) turn.usage = addUsage(turn.usage, usage);
  const turnId = turn?.turnId ?? who.turnId;
  const agent = who.agentId ? { agentId: who.agentId } : {};
  await core.state.addUsage(
    usage,
    {
      model,
      ...(turnId ? { turnId } : {}),
      ...agent,
      ...(who.source ? { source: who.source } : {}),
      ...(who.toolName ? { toolName: who.toolName } : {}),
      ...(who.toolCallId ? { toolCallId: who.toolCallId } : {}),
    },
    { ...(turnId ? { turnId } : {}), ...agent },
  );
  return usage;
}

/**
 * Why nothing more may be spent: the turn's budget (`turnCostCapUsd`, against `turn`'s
 * usage) or the session's cost cap (`costCapUsd`, against its total) is reached. Undefined
 * while under both (or when neither is set).
 */
export function capReached(
  core: Pick<SessionCore, "config" | "state">,
  turn: Pick<TurnState, "usage"> | undefined,
): string | undefined {
  const turnCap = core.config.turnCostCapUsd;
  if (turnCap !== undefined && turn && turn.usage.costUsd >= turnCap)
    return `the turn reached its budget ($${turnCap.toFixed(2)})`;
  const cap = core.config.costCapUsd;
  if (cap !== undefined && core.state.totalUsage.costUsd >= cap)
    return `the session reached its cost cap ($${cap.toFixed(2)})`;
  return undefined;
}

async function* metered(
  core: SpendCore,
  client: ModelClient,
  request: ModelRequest,
  options: StreamOptions | undefined,
  who: SpendAttribution,
): AsyncGenerator<ModelEvent> {
  const refused = capReached(core, who.turn);
  if (refused) {
    yield { type: "error", error: { kind: "unknown", message: `not sent: ${refused}` } };
    return;
  }
  let tokens: TokenUsage | undefined;
  try {
    for await (const event of client.stream(request, options)) {
      if (event.type === "usage") tokens = event.usage;
      yield event;
    }
  } finally {
    // Also when the caller stops reading: what was used until then is spent.
    if (tokens) await recordSpend(core, request.model, tokens, who).catch(() => {});
  }
}

/**
 * A fast-model client whose every call is accounted: `who` is asked as a call starts; a call
 * that would start with the turn's or the session's cap reached is not sent (its stream is
 * one `error` event, kind `unknown`, saying so, so the caller takes its usual fallback);
 * otherwise the call's last reported usage is recorded with {@link recordSpend} before its
 * stream ends. Keeps the `ModelClient` contract: never throws for the accounting.
 */
export function meteredClient(
  core: SpendCore,
  client: ModelClient,
  who: () => SpendAttribution,
): ModelClient {
  return { stream: (request, options) => metered(core, client, request, options, who()) };
}
