import type { EffectiveSettings } from "@z-engine/config";
import type { DecisionSeam, TurnId } from "@z-engine/protocol";
import type { NativeModels } from "./native.js";
import type { SeamAdvice, SeamInput } from "./seams.js";
import type { Sidecar } from "../sidecars/sidecar.js";

/** The settings a hub reads: the feature switches and `[decisions]` (`timeout_ms`, `rules`). */
export interface DecisionSettings {
  readonly experimental: EffectiveSettings["experimental"];
  readonly decisions: {
    readonly timeout_ms: number;
    readonly rules?: EffectiveSettings["decisions"]["rules"];
  };
}

/** What a use gets besides the seam's input. */
export interface UseContext {
  /** Aborted at the shared deadline, or when the turn or session stops. */
  readonly signal: AbortSignal;
  /** The fast model, asked for a JSON answer (abstains on any failure). */
  readonly sidecar: Sidecar;
  /** The shipped classifiers through onnxruntime-node (abstains when it is absent). */
  readonly native: NativeModels;
  /** What this use remembers between seams in this session (per use). */
  readonly memory: Map<string, unknown>;
  /** The turn the seam runs in, when it runs in one. */
  readonly turnId?: TurnId;
  /** The session's settings at this seam (the hub always gives them). */
  readonly settings?: DecisionSettings;
}

/**
 * One decision use: a feature (`[experimental] decisions_<name>`) that joins one seam. It
 * resolves with advice, or undefined to abstain; a rejection abstains too (the hub traces it
 * as an error). It must give up when `ctx.signal` aborts.
 */
export interface DecisionUse<S extends DecisionSeam = DecisionSeam> {
  /** The feature name, e.g. `review_call`. */
  readonly name: string;
  readonly seam: S;
  /** The module that implements it (for the trace and the README). */
  readonly module: string;
  decide(input: SeamInput<S>, ctx: UseContext): Promise<SeamAdvice<S> | undefined>;
  /**
   * Whether the use joins its seam with these settings (default: it does), asked when the
   * feature is On or Shadow; `notice` tells the user of a setting it skips (once each).
   */
  joins?(settings: DecisionSettings, notice: (message: string) => void): boolean;
  /** Called when the use starts running (On or Shadow): start loading what it needs. */
  prepare?(native: NativeModels): void;
  /** A short, value-free description of the advice for the trace. */
  describe(advice: SeamAdvice<S>): string;
}

/** A use of any seam, as the USES table holds them. */
export type AnyUse = { [S in DecisionSeam]: DecisionUse<S> }[DecisionSeam];
