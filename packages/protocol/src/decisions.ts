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

/**
 * A task view as it applied: earlier exchanges set aside for a new task (their messages stay
 * in the transcript and in an artifact the index message names), or, with `restored`, the
 * full history brought back (`includeFullHistory`).
 */
export const TaskViewInfo = lazily(() =>
  z.object({
    restored: z.boolean(),
    /** Exchanges set aside (0 when restored). */
    setAside: z.number().int().nonnegative(),
    /** Messages of the working set kept, besides the index message. */
    keptMessages: z.number().int().nonnegative(),
    /** The artifact that holds the set-aside exchanges whole. */
    artifact: z.string().optional(),
  }),
);
export type TaskViewInfo = z.infer<typeof TaskViewInfo>;

/** What a suggestion card offers; accepting it is the user's act (`resolveSuggestion`). */
export const SuggestionKind = lazily(() => z.enum(["plan", "memory", "review"]));
export type SuggestionKind = z.infer<typeof SuggestionKind>;

/**
 * A suggestion card: `plan` offers plan mode for a large request, `memory` offers to save a
 * standing rule the user stated to the project's local instructions, `review` offers a review
 * turn of the files the turn changed. Nothing happens unless the user accepts it.
 */
export const Suggestion = lazily(() =>
  z.object({
    id: z.string().min(1),
    kind: SuggestionKind,
    /** What the card says. */
    text: z.string(),
    /** For `memory`, the rule to save; for `review`, the prompt of the review turn. */
    detail: z.string().optional(),
    turnId: TurnId.optional(),
  }),
);
export type Suggestion = z.infer<typeof Suggestion>;
