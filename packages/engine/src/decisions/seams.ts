import type { Action } from "@z-engine/policy";
import {
  type CheckId,
  DecisionSeam,
  type Effort,
  type PermissionMode,
  type TurnTone,
} from "@z-engine/protocol";
import type { SuggestionKind } from "@z-engine/protocol";
import type { FileStamp } from "@z-engine/tools";

/** A suggestion a use offers: what the card says and, for memory and review, what accepting does. */
export interface SuggestionAdvice {
  readonly kind: SuggestionKind;
  readonly text: string;
  readonly detail?: string;
}

/** What the turn-start seam shows a task-view use of one earlier exchange. */
export interface ExchangeDigest {
  readonly index: number;
  readonly prompt: string;
  readonly chars: number;
}

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

/** A tool result the context-pressure seam may clear: its id and a short description. */
export interface ClearableResult {
  readonly toolUseId: string;
  readonly toolName: string;
  /** The call's input, shortened ("Read src/a.ts", a command's start). */
  readonly summary: string;
  readonly chars: number;
}

/** A document of the project, as the ask-user seam offers it. */
export interface ProjectDoc {
  readonly path: string;
  readonly text: string;
}

/** An answer the project's documents give to one question. */
export interface DocAnswer {
  readonly question: string;
  /** The label of the choice the documents pick. */
  readonly answer: string;
  /** The document's path. */
  readonly source: string;
  /** The document's words that give the answer, copied exactly. */
  readonly quote: string;
}

/** A file's text as a seam reads it for a use: only what the Read rules allow without asking. */
export interface FileLook {
  /** The path as the use named it. */
  readonly path: string;
  /** The real absolute path the door read. */
  readonly realPath: string;
  /** At most the characters asked for. */
  readonly text: string;
  /** True when the file is longer than `text`. */
  readonly cut: boolean;
  /** Its stamp, when the whole file was read and it did not change while read. */
  readonly stamp?: FileStamp;
}

/**
 * Reads `path` (relative to the project, or absolute) through the project-files door with
 * the session's Read rules; undefined when they deny it, would ask, or it cannot be read
 * (nothing is read then). At most `maxChars` characters. Never rejects.
 */
export type FileLooker = (path: string, maxChars: number) => Promise<FileLook | undefined>;

/** A deferred MCP tool as the turn-start seam offers it: its name and first-line description. */
export interface DeferredTool {
  readonly name: string;
  readonly description: string;
}

/**
 * What each seam gives its uses and what a use may answer. The advice types are the
 * escalate-only rule written as types: none of them has a way to allow, deny, cancel a turn
 * or set a badge. A tool-gate advice can only name the reason to ask; a stop advice only
 * a reminder; a check-select advice only checks to skip from an automatic run.
 */
export interface SeamTypes {
  turnStart: {
    input: {
      readonly prompt: string;
      /** The mode the turn runs in (a plan suggestion is for `ask` only). */
      readonly mode: PermissionMode;
      /** Earlier exchanges a task view may set aside (empty for a short history). */
      readonly exchanges: readonly ExchangeDigest[];
      /** The session's skills (name, description), for hints. */
      readonly skills: readonly { readonly name: string; readonly description: string }[];
      /** True on the session's first turn of the main agent (nothing in its history yet). */
      readonly firstTurn?: boolean;
      /** The project's files (relative paths, sorted), listed on first call; never their text. */
      readonly projectFiles?: () => Promise<readonly string[]>;
      /** The session's MCP tools whose definitions are deferred (empty when none are). */
      readonly deferredTools?: readonly DeferredTool[];
      /** Reads a project file the Read rules allow without asking. */
      readonly look?: FileLooker;
    };
    /**
     * Reminders for the opening message; exchanges (their `index`) to set aside from what
     * the model reads (never the newest ones: the transcript keeps them all, and
     * `includeFullHistory` brings them back); a card for the user; deferred MCP tools to load
     * before the first request.
     */
    advice: {
      readonly reminders?: readonly string[];
      readonly loadTools?: readonly string[];
      readonly setAside?: readonly number[];
      readonly suggestion?: SuggestionAdvice;
    };
  };
  contextPressure: {
    input: {
      /** What the agent is working on: the latest user prompt (its start). */
      readonly task: string;
      /** Tool results planned to be cleared (their originals go to artifacts). */
      readonly planned: readonly ClearableResult[];
      /** Older results not planned, which a use may add. */
      readonly candidates: readonly ClearableResult[];
    };
    /** Tool-use ids: planned clears to keep, candidates to clear too. Keeping wins. */
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
      /** The request the agent works on (its latest prompt). */
      readonly prompt?: string;
      /** Reads a file the Read rules allow without asking. */
      readonly look?: FileLooker;
      /** True when the agent read `realPath` and it has not changed since. */
      readonly seen?: (realPath: string) => Promise<boolean>;
    };
    /** Notes on the result; files' text for the next request (read for the agent). */
    advice: { readonly notes: readonly string[]; readonly prefetched?: readonly FileLook[] };
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
    input: {
      /** The questions of one AskUserQuestion call, each with its choices' labels. */
      readonly questions: readonly {
        readonly question: string;
        readonly options: readonly string[];
      }[];
      /** The project's documents (path relative to the project, text). */
      readonly docs: readonly ProjectDoc[];
    };
    /** One answer per question, in order, each a choice backed by a quote of a document. */
    advice: { readonly answers: readonly DocAnswer[] };
  };
  route: {
    /**
     * The task, the efforts the use may pick (empty when the session set its own, or for a
     * subagent's launch) and the models it may pick instead of the session's (empty unless
     * `[decisions] allow_model_switch` allows the fast model).
     */
    input: {
      readonly prompt: string;
      readonly efforts: readonly Effort[];
      readonly models: readonly string[];
    };
    advice: { readonly effort?: Effort; readonly model?: string; readonly reason: string };
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
    input: { readonly toolName: string; readonly input: unknown; readonly text: string };
    /** 1-based, inclusive line ranges of `text` that matter, in order, not overlapping. */
    advice: { readonly keepLines: readonly (readonly [number, number])[] };
  };
  turnEnd: {
    input: {
      readonly prompt: string;
      readonly answer: string;
      /** Files the turn wrote (a review suggestion names them). */
      readonly changedPaths: readonly string[];
    };
    advice: { readonly tone?: TurnTone; readonly suggestion?: SuggestionAdvice };
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
