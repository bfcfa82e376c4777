import { meteredClient, type SpendCore } from "../core/spend.js";
import type { SessionCore } from "../core/session-core.js";
import { DecisionHub } from "./hub.js";
import { nativeRuntime } from "./native.js";
import { createSidecar, type Sidecar } from "../sidecars/sidecar.js";
import type { SidecarLaunch } from "../sidecars/sidecar-process.js";
import { USES } from "./uses.js";

/**
 * What the decision layer needs of a session: its settings, its journal, its clients, the
 * engine's sidecars, and what accounting the sidecar's spend takes (prices, the state with
 * the running turn).
 */
export type DecisionHost = SpendCore &
  Pick<SessionCore, "config" | "journal" | "client"> &
  Partial<Pick<SessionCore, "sidecars">>;

const hubs = new WeakMap<DecisionHost, DecisionHub>();

/** The configured sidecar program of `[decisions]`, if one is set. */
export function sidecarLaunchOf(core: Pick<DecisionHost, "config">): SidecarLaunch | undefined {
  const { sidecar_command: command, sidecar_args: args, model } = core.config.settings.decisions;
  if (!command) return undefined;
  return { command, args, ...(model ? { model } : {}) };
}

/**
 * The session's decision model, chosen at each question from the settings now: the
 * configured sidecar program (`[decisions] sidecar_command`, `sidecar_args`, `model`), shared
 * through the engine's pool; else the fast model, or `[decisions] model` through the fast
 * role of the client factory. A program that cannot start or exits gives one warning notice
 * (`decisions.sidecar`) per message and session, and its questions abstain.
 */
function sessionSidecar(core: DecisionHost): Sidecar {
  const fast = createSidecar(() => {
    const model = core.config.settings.decisions.model ?? core.config.fastModel;
    return {
      // The sidecar's spend is the running turn's (source `decisions`); a cap reached: it abstains.
      client: meteredClient(core, core.client("fast", model), () => {
        const turn = core.state.currentTurn;
        return { source: "decisions", ...(turn ? { turn } : {}) };
      }),
      model,
    };
  });
  const told = new Set<string>();
  // The engine's pool outlives the session: it must not keep the session's journal alive.
  const journal = new WeakRef(core.journal);
  const onProblem = (message: string) => {
    if (told.has(message)) return;
    told.add(message);
    void journal.deref()?.notice("warning", "decisions.sidecar", message);
  };
  const programs = new Map<string, Sidecar>();
  return {
    ask(instructions, question, schema, signal) {
      const launch = sidecarLaunchOf(core);
      if (!launch || !core.sidecars) return fast.ask(instructions, question, schema, signal);
      const key = JSON.stringify(launch);
      let program = programs.get(key);
      if (!program) {
        program = core.sidecars.sidecar(launch, onProblem);
        programs.set(key, program);
      }
      return program.ask(instructions, question, schema, signal);
    },
  };
}

/**
 * The decision hub of a session, made on first use: the USES table, the session's settings,
 * its decision model as the sidecar and the process's native runtime. A setting a use skips
 * is one `decisions.rules` warning notice per message and session.
 */
export function decisionsOf(core: DecisionHost): DecisionHub {
  let hub = hubs.get(core);
  if (!hub) {
    hub = new DecisionHub({
      settings: () => core.config.settings,
      emit: (event, turnId) => core.journal.emit(event, turnId ? { turnId } : {}),
      sidecar: sessionSidecar(core),
      native: nativeRuntime,
      uses: USES,
      // A `[[decisions.rules]]` entry skipped (no `when`, an unknown `at`, past 20).
      notice: (message) => void core.journal.notice("warning", "decisions.rules", message),
    });
    hubs.set(core, hub);
  }
  return hub;
}
