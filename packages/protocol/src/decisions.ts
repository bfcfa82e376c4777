import { z } from "zod";
import { lazily } from "./lazy.js";
import { ApprovalId, TurnId } from "./ids.js";
import { Effort } from "./model.js";

/**
 * The places where a decision use may add caution (architecture.md "Decision seams"). A
 * seam never allows, denies, cancels a turn or sets a badge.
 */
export const DecisionSeam = lazily(() =>
  z.enum([
    "turnStart",
    "contextPressure",
    "beforeRequest",
    "toolGate",
    "afterCall",
    "stopBoundary",
    "askUser",
    "route",
    "completion",
    "checkSelect",
    "relevance",
    "turnEnd",
    "attention",
  ]),
);
export type DecisionSeam = z.infer<typeof DecisionSeam>;

/** How an experimental decision feature runs: not at all, detached with its advice dropped, or applied. */
export const DecisionMode = lazily(() => z.enum(["off", "shadow", "on"]));
export type DecisionMode = z.infer<typeof DecisionMode>;

/**
 * One decision as it happened: which use at which seam, in which mode, what it came to and
 * whether its advice was applied. `advice`: the use gave advice (applied only when On);
 * `abstain`: it had nothing to add, or its runtime is absent; `timeout` and `error` abstain
 * too; `skipped`: a Shadow use found all four shadow slots busy.
 */
export const DecisionTrace = lazily(() =>
  z.object({
    use: z.string(),
    seam: DecisionSeam,
    mode: z.enum(["shadow", "on"]),
    outcome: z.enum(["advice", "abstain", "timeout", "error", "skipped"]),
    applied: z.boolean(),
    durationMs: z.number().nonnegative(),
    /** A short, redacted description of the advice or the failure. */
    detail: z.string().optional(),
  }),
);
export type DecisionTrace = z.infer<typeof DecisionTrace>;

/** The effort or model a route use chose for a turn, within what the task allows. */
export const DecisionRoute = lazily(() =>
  z.object({
    effort: Effort.optional(),
    model: z.string().optional(),
    reason: z.string(),
  }),
);
export type DecisionRoute = z.infer<typeof DecisionRoute>;

/** A claim in the final answer ("tests pass") that no fresh check record backs. */
export const CompletionClaim = lazily(() =>
  z.object({
    turnId: TurnId,
    text: z.string(),
    /** What kind of evidence the claim needs. */
    kind: z.enum(["tests", "build", "typecheck", "other"]),
  }),
);
export type CompletionClaim = z.infer<typeof CompletionClaim>;

/** The tone of a finished turn, judged in the background. */
export const TurnTone = lazily(() => z.enum(["neutral", "satisfied", "frustrated", "confused"]));
export type TurnTone = z.infer<typeof TurnTone>;

/** How urgent an approval or a notice is for the person at the screen. */
export const Urgency = lazily(() =>
  z.object({
    /** The approval id, or `notice:<code>`. */
    item: z.union([ApprovalId, z.string()]),
    level: z.enum(["low", "normal", "high"]),
    reason: z.string(),
  }),
);
export type Urgency = z.infer<typeof Urgency>;
