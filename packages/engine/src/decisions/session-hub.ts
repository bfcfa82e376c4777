import { meteredClient, type SpendCore } from "../run/spend.js";
import type { SessionCore } from "../session/core.js";
import { DecisionHub } from "./hub.js";
import { nativeRuntime } from "./native.js";
import { createSidecar } from "./sidecar.js";
import { USES } from "./uses.js";

/**
 * What the decision layer needs of a session: its settings, its journal, its clients, and
 * what accounting the sidecar's spend takes (prices, the state with the running turn).
 */
export type DecisionHost = SpendCore & Pick<SessionCore, "config" | "journal" | "client">;

const hubs = new WeakMap<DecisionHost, DecisionHub>();

/**
 * The decision hub of a session, made on first use: the USES table, the session's settings,
 * the fast model as the sidecar and the process's native runtime.
 */
export function decisionsOf(core: DecisionHost): DecisionHub {
  let hub = hubs.get(core);
  if (!hub) {
    hub = new DecisionHub({
      settings: () => core.config.settings,
      emit: (event, turnId) => core.journal.emit(event, turnId ? { turnId } : {}),
      // The sidecar's spend is the running turn's (source `decisions`); a cap reached: it abstains.
      sidecar: createSidecar(() => ({
        client: meteredClient(core, core.client("fast", core.config.fastModel), () => {
          const turn = core.state.currentTurn;
          return { source: "decisions", ...(turn ? { turn } : {}) };
        }),
        model: core.config.fastModel,
      })),
      native: nativeRuntime,
      uses: USES,
    });
    hubs.set(core, hub);
  }
  return hub;
}
