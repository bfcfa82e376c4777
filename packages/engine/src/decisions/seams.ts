import type { Action } from "@z-engine/policy";
import { type CheckId, DecisionSeam, type Effort, type TurnTone } from "@z-engine/protocol";

/** A value in a new tool result that may be a credential, to ask about before it is sent. */
export interface FlaggedValue {
  /** The exact text as it appears in the result. */
  readonly value: string;
  /** Why it was flagged ("GitHub token format", "classifier 0.93"). */
  readonly why: string;
}

/** A tool result's text that has not been sent to the model yet. */
export interface NewResultText {
  readonly toolUseId: string;
  readonly toolName: string;
  readonly text: string;
}

/**
 * What each seam gives its uses and what a use may answer. The advice types are the
 * escalate-only rule written as types: none of them has a way to allow, deny, cancel a turn
 * or set a badge. A tool-gate advice can only name the reason to ask; a stop advice only
 * a reminder; a check-select advice only checks to skip from an automatic run.
 */
export interface SeamTypes {
  turnStart: {
    input: { readonly prompt: string };
    advice: { readonly reminders: readonly string[] };
  };
  contextPressure: {
    input: { readonly planned: readonly string[]; readonly candidates: readonly string[] };
    advice: { readonly keep: readonly string[]; readonly add: readonly string[] };
  };
  beforeRequest: {
    input: { readonly results: readonly NewResultText[] };
    advice: { readonly flagged: readonly FlaggedValue[] };
  };
  toolGate: {
    input: {
      readonly toolName: string;
      readonly input: unknown;
      readonly actions: readonly Action[];
    };
    advice: { readonly askReason: string };
  };
  afterCall: {
    input: {
      readonly toolName: string;
      readonly input: unknown;
      readonly text: string;
      readonly isError: boolean;
    };
    advice: { readonly notes: readonly string[] };
  };
  stopBoundary: {
    input: {
      readonly answer: string;
      readonly filesChanged: boolean;
      /** Check records made during this turn. */
      readonly checksThisTurn: number;
    };
    advice: { readonly reminder: string };
  };
  askUser: {
    input: { readonly question: string };
    advice: { readonly answer: string; readonly source: string };
  };
  route: {
    input: { readonly prompt: string; readonly efforts: readonly Effort[] };
    advice: { readonly effort: Effort; readonly reason: string };
  };
  completion: {
    input: { readonly answer: string; readonly checksThisTurn: number };
    advice: { readonly claim: string; readonly kind: "tests" | "build" | "typecheck" | "other" };
  };
  checkSelect: {
    input: { readonly changedPaths: readonly string[]; readonly checkIds: readonly CheckId[] };
    advice: { readonly skip: readonly CheckId[] };
  };
  relevance: {
    input: { readonly text: string };
    advice: { readonly keepLines: readonly (readonly [number, number])[] };
  };
  turnEnd: {
    input: { readonly prompt: string; readonly answer: string };
    advice: { readonly tone: TurnTone };
  };
  attention: {
    input: { readonly item: string; readonly kind: "approval" | "notice"; readonly text: string };
    advice: { readonly level: "low" | "normal" | "high"; readonly reason: string };
  };
}

/** The input a use gets at seam `S`. */
export type SeamInput<S extends DecisionSeam> = SeamTypes[S]["input"];
/** The advice a use may give at seam `S`. */
export type SeamAdvice<S extends DecisionSeam> = SeamTypes[S]["advice"];

/** Every seam, in the spec's order. */
export const SEAMS: readonly DecisionSeam[] = DecisionSeam.options;
