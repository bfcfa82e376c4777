import type { Effort, TurnId } from "@z-engine/protocol";
import type { AgentRun } from "../core/agent-context.js";
import type { SessionCore } from "../core/session-core.js";
import { type DecisionHost, decisionsOf } from "./session-hub.js";
import type { SeamTurn } from "./stop-seam.js";

/** What a route chose for a turn's main-agent requests. */
interface Routed {
  readonly effort?: Effort;
  readonly model?: string;
}

const routed = new WeakMap<SeamTurn, Routed>();
/** The efforts a route may pick (never `max`: it only ever costs more). */
const ROUTE_EFFORTS: readonly Effort[] = ["low", "medium", "high"];

type RouteCore = DecisionHost & Pick<SessionCore, "effort" | "model" | "catalog">;

/**
 * The models a route may pick instead of the session's model: the fast model, only with
 * `[decisions] allow_model_switch`, when the chat runs the configured main model (nothing
 * picked another), the fast model differs and its context window is at least as large.
 */
function routeModels(core: RouteCore): readonly string[] {
  const { config } = core;
  if (!config.settings.decisions.allow_model_switch) return [];
  const fast = config.fastModel;
  if (core.model !== config.model || fast === core.model) return [];
  const window = (m: string) => core.catalog.info(m).contextWindow;
  return window(fast) >= window(core.model) ? [fast] : [];
}

/**
 * The route seam at turn start: a route use may pick this turn's effort (only when the
 * session has no effort of its own) and, where {@link routeModels} allows one, its model
 * (`routeChosen`). What it picks outside what it was offered is dropped. Never rejects.
 */
export async function routeTurn(core: RouteCore, turn: SeamTurn, prompt: string): Promise<void> {
  // Made at turn start, so the uses' models start loading while the first request streams.
  const hub = decisionsOf(core);
  if (!hub.joins("route")) return;
  const efforts = core.effort === undefined ? ROUTE_EFFORTS : [];
  const models = routeModels(core);
  if (efforts.length === 0 && models.length === 0) return;
  const scope = { signal: turn.signal, turnId: turn.turnId };
  const [advice] = await hub.consult("route", { prompt, efforts, models }, scope);
  if (!advice) return;
  const effort = advice.effort && efforts.includes(advice.effort) ? advice.effort : undefined;
  const model = advice.model && models.includes(advice.model) ? advice.model : undefined;
  if (!effort && !model) return;
  routed.set(turn, { ...(effort ? { effort } : {}), ...(model ? { model } : {}) });
  core.journal.emit(
    {
      type: "routeChosen",
      route: { ...(effort ? { effort } : {}), ...(model ? { model } : {}), reason: advice.reason },
    },
    { turnId: turn.turnId },
  );
}

/** The effort the route chose for the main agent's requests in `turn`, if any. */
export function routedEffort(run: Pick<AgentRun, "depth">, turn: SeamTurn): Effort | undefined {
  return run.depth === 0 ? routed.get(turn)?.effort : undefined;
}

/** The model the route chose for the main agent's requests in `turn`, if any. */
export function routedModel(run: Pick<AgentRun, "depth">, turn: SeamTurn): string | undefined {
  return run.depth === 0 ? routed.get(turn)?.model : undefined;
}

/**
 * The route seam at a subagent's launch (its definition inherits the session's model): a
 * route use may pick the model only, among {@link routeModels} (`routeChosen`, in the parent's
 * turn). Resolves with the model, or undefined to keep the inherited one. Never rejects.
 */
export async function routeSubagent(
  core: RouteCore,
  task: string,
  scope: { readonly signal: AbortSignal; readonly turnId: TurnId },
): Promise<string | undefined> {
  const hub = decisionsOf(core);
  if (!hub.joins("route")) return undefined;
  const models = routeModels(core);
  if (models.length === 0) return undefined;
  const [advice] = await hub.consult("route", { prompt: task, efforts: [], models }, scope);
  const model = advice?.model && models.includes(advice.model) ? advice.model : undefined;
  if (!model || !advice) return undefined;
  core.journal.emit(
    { type: "routeChosen", route: { model, reason: advice.reason } },
    { turnId: scope.turnId },
  );
  return model;
}
