import { type DecisionFeatureMode, decisionFeatureMode } from "@z-engine/config";
import type { DecisionSeam, DecisionTrace, EngineEvent, TurnId } from "@z-engine/protocol";
import type { NativeModels } from "./native.js";
import type { SeamAdvice, SeamInput } from "./seams.js";
import type { Sidecar } from "../sidecars/sidecar.js";
import type { AnyUse, DecisionSettings, DecisionUse, UseContext } from "./use.js";

export type { DecisionSettings } from "./use.js";

/** Shadow uses running at once per session; extra ones are skipped (and traced). */
export const MAX_SHADOW = 4;
/** Traces a hub keeps in memory (the newest). */
const TRACE_KEEP = 500;

/** What a hub needs of its session. */
export interface HubDeps {
  /** The session's settings now (read at each seam; a trust reload applies at once). */
  settings(): DecisionSettings;
  /** Emits a live event (the trace, and the uses' own events). */
  emit(event: EngineEvent, turnId?: TurnId): void;
  readonly sidecar: Sidecar;
  readonly native: NativeModels;
  /** The uses, in USES order. */
  readonly uses: readonly AnyUse[];
  /** Aborts every detached shadow run (the session's lifetime). */
  readonly signal?: AbortSignal;
  /** Tells the user of a setting a use skips (a warning notice); each message once. */
  notice?(message: string): void;
}

type Plan = Record<DecisionSeam, { on: AnyUse[]; shadow: AnyUse[] }>;
const NONE: Promise<readonly never[]> = Promise.resolve([]);
const ABORTED = Symbol("aborted");

function planOf(
  uses: readonly AnyUse[],
  settings: DecisionSettings,
  native: NativeModels,
  notice: (message: string) => void,
): Plan {
  const plan = {} as Plan;
  for (const use of uses) {
    const mode: DecisionFeatureMode = decisionFeatureMode(settings, use.name);
    plan[use.seam] ??= { on: [], shadow: [] };
    if (mode === "off" || use.joins?.(settings, notice) === false) continue;
    plan[use.seam][mode].push(use);
    use.prepare?.(native);
  }
  return plan;
}

/**
 * A signal that aborts after `ms` or when `also` aborts, and its end (call it once the run
 * is over). A timer, not `AbortSignal.timeout`: `AbortSignal.any` holds its sources weakly,
 * and a timeout signal nothing else holds can be collected before it fires.
 */
function deadline(ms: number, also?: AbortSignal): { signal: AbortSignal; end(): void } {
  const timer = new AbortController();
  const handle = setTimeout(() => timer.abort(), ms);
  const signal = also ? AbortSignal.any([timer.signal, also]) : timer.signal;
  return { signal, end: () => clearTimeout(handle) };
}

/** Resolves with `promise`'s value, or ABORTED as soon as `signal` aborts. */
function untilAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | typeof ABORTED> {
  if (signal.aborted) return Promise.resolve(ABORTED);
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve(ABORTED);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener("abort", onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener("abort", onAbort);
        reject(e);
      },
    );
  });
}

/**
 * A session's decision hub (architecture.md "Decision seams"): runs the uses that join a
 * seam, in the mode of their feature. A seam with no running use returns at once. Shadow
 * uses run detached (at most four at once), their advice dropped but traced. On uses share
 * one deadline of twice `decisions.timeout_ms` plus 50 ms; their advice comes back in USES
 * order. A use that fails, times out or abstains gives nothing: behaviour equals Off.
 * Every run is traced (`decisionTraced`, and `traces()`).
 */
export class DecisionHub {
  private plan: Plan | undefined;
  private planFor: DecisionSettings | undefined;
  private readonly told = new Set<string>();
  private shadowRunning = 0;
  private readonly detached = new Set<Promise<void>>();
  private readonly memories = new Map<string, Map<string, unknown>>();
  private readonly kept: DecisionTrace[] = [];

  constructor(private readonly deps: HubDeps) {}

  private current(): Plan {
    const settings = this.deps.settings();
    const known = this.planFor;
    const same =
      known?.experimental === settings.experimental && known.decisions === settings.decisions;
    if (!this.plan || !same) {
      this.plan = planOf(this.deps.uses, settings, this.deps.native, (message) => {
        if (this.told.has(message)) return;
        this.told.add(message);
        this.deps.notice?.(message);
      });
      this.planFor = settings;
    }
    return this.plan;
  }

  /** Whether any use runs (On or Shadow) at `seam`. Cheap: call sites skip the seam when not. */
  joins(seam: DecisionSeam): boolean {
    const entry = this.current()[seam];
    return entry !== undefined && (entry.on.length > 0 || entry.shadow.length > 0);
  }

  /**
   * Runs the uses of `seam`: Shadow ones detached, On ones under the shared deadline.
   * Resolves with the On uses' advice in USES order (empty when none advised). Never
   * rejects; `signal` aborting ends the wait like the deadline does.
   */
  consult<S extends DecisionSeam>(
    seam: S,
    input: SeamInput<S>,
    scope: { readonly signal?: AbortSignal; readonly turnId?: TurnId } = {},
  ): Promise<readonly SeamAdvice<S>[]> {
    const entry = this.current()[seam];
    if (!entry || (entry.on.length === 0 && entry.shadow.length === 0)) return NONE;
    for (const use of entry.shadow) this.runShadow(use as DecisionUse<S>, input, scope.turnId);
    if (entry.on.length === 0) return NONE;
    return this.runOn(entry.on as DecisionUse<S>[], input, scope);
  }

  private deadlineMs(): number {
    return 2 * this.deps.settings().decisions.timeout_ms + 50;
  }

  private async runOn<S extends DecisionSeam>(
    uses: readonly DecisionUse<S>[],
    input: SeamInput<S>,
    scope: { readonly signal?: AbortSignal; readonly turnId?: TurnId },
  ): Promise<readonly SeamAdvice<S>[]> {
    const limit = deadline(this.deadlineMs(), scope.signal);
    const outcomes: (SeamAdvice<S> | undefined)[] = await Promise.all(
      uses.map((use) => this.runOne(use, input, limit.signal, "on", scope.turnId)),
    ).finally(limit.end);
    const advice: SeamAdvice<S>[] = [];
    for (const a of outcomes) if (a !== undefined) advice.push(a);
    return advice;
  }

  private runShadow<S extends DecisionSeam>(
    use: DecisionUse<S>,
    input: SeamInput<S>,
    turnId: TurnId | undefined,
  ): void {
    if (this.shadowRunning >= MAX_SHADOW) {
      this.trace({ use, mode: "shadow", outcome: "skipped", applied: false, started: 0 }, turnId);
      return;
    }
    this.shadowRunning++;
    const limit = deadline(this.deadlineMs(), this.deps.signal);
    const run = this.runOne(use, input, limit.signal, "shadow", turnId).then(() => {
      limit.end();
      this.shadowRunning--;
      this.detached.delete(run);
    });
    this.detached.add(run);
  }

  /** Runs one use; resolves with its advice (undefined to abstain). Never rejects. */
  private async runOne<S extends DecisionSeam>(
    use: DecisionUse<S>,
    input: SeamInput<S>,
    signal: AbortSignal,
    mode: "on" | "shadow",
    turnId: TurnId | undefined,
  ): Promise<SeamAdvice<S> | undefined> {
    const started = performance.now();
    const ctx: UseContext = {
      signal,
      sidecar: this.deps.sidecar,
      native: this.deps.native,
      memory: this.memory(use.name),
      settings: this.deps.settings(),
      ...(turnId ? { turnId } : {}),
    };
    const base = { use, mode, started } as const;
    try {
      const advice = await untilAbort(
        Promise.resolve().then(() => use.decide(input, ctx)),
        signal,
      );
      if (advice === ABORTED || signal.aborted) {
        this.trace({ ...base, outcome: "timeout", applied: false }, turnId);
        return undefined;
      }
      if (advice === undefined) {
        this.trace({ ...base, outcome: "abstain", applied: false }, turnId);
        return undefined;
      }
      const detail = use.describe(advice);
      this.trace({ ...base, outcome: "advice", applied: mode === "on", detail }, turnId);
      return mode === "on" ? advice : undefined;
    } catch (error) {
      const detail = error instanceof Error ? error.message.slice(0, 200) : "failed";
      this.trace(
        { ...base, outcome: signal.aborted ? "timeout" : "error", applied: false, detail },
        turnId,
      );
      return undefined;
    }
  }

  private memory(use: string): Map<string, unknown> {
    const known = this.memories.get(use);
    if (known) return known;
    const fresh = new Map<string, unknown>();
    this.memories.set(use, fresh);
    return fresh;
  }

  private trace(
    t: {
      use: { readonly name: string; readonly seam: DecisionSeam };
      mode: "on" | "shadow";
      outcome: DecisionTrace["outcome"];
      applied: boolean;
      started: number;
      detail?: string;
    },
    turnId: TurnId | undefined,
  ): void {
    const trace: DecisionTrace = {
      use: t.use.name,
      seam: t.use.seam,
      mode: t.mode,
      outcome: t.outcome,
      applied: t.applied,
      durationMs: t.started === 0 ? 0 : Math.max(0, performance.now() - t.started),
      ...(t.detail ? { detail: t.detail } : {}),
    };
    this.kept.push(trace);
    if (this.kept.length > TRACE_KEEP) this.kept.shift();
    this.deps.emit({ type: "decisionTraced", trace }, turnId);
  }

  /** The newest traces, oldest first. */
  traces(): readonly DecisionTrace[] {
    return this.kept.slice();
  }

  /** Shadow runs still going. */
  get shadowCount(): number {
    return this.shadowRunning;
  }

  /** Resolves once no shadow run is going (tests; closing a session). */
  async shadowIdle(): Promise<void> {
    while (this.detached.size > 0) await Promise.all([...this.detached]);
  }
}
