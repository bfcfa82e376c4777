import type {
  Badge,
  EngineEventOf,
  PermissionMode,
  Plan,
  Question,
  TestCounts,
  ToolDisplay,
  TurnOutcome,
  Usage,
} from "@z-engine/protocol";
import type { SlashCommand } from "./complete.js";

/** One recorded check run as a transcript line shows it. */
export interface CheckLine {
  readonly checkId: string;
  readonly command: string;
  readonly passed: boolean;
  readonly exitCode: number | null;
  readonly counts: TestCounts | null;
  readonly outputTail: string;
}

/** What the welcome header says about where the session runs. */
export interface Header {
  readonly folder: string;
  readonly branch?: string;
  readonly model: string;
  readonly mode: PermissionMode;
  /** Where the provider key comes from (`ANTHROPIC_API_KEY`, `auth.json`), or why there is none. */
  readonly key: string;
}

/** A finished line of the transcript: printed once (ink's `<Static>`), never redrawn. */
export type Item =
  | {
      readonly id: number;
      readonly kind: "user";
      readonly text: string;
      readonly steer?: boolean;
      /** The user message's id (rewinds of a resumed session cut the transcript here). */
      readonly messageId?: string;
    }
  | { readonly id: number; readonly kind: "assistant"; readonly text: string }
  | { readonly id: number; readonly kind: "thinking"; readonly text: string }
  | {
      readonly id: number;
      readonly kind: "tool";
      readonly title: string;
      readonly status: "ok" | "error" | "denied" | "cancelled";
      readonly display?: ToolDisplay;
      readonly durationMs: number;
      readonly agentId?: string;
      /** The user's feedback with a deny. */
      readonly feedback?: string;
      /** Checks a Verify call recorded. */
      readonly checks?: readonly CheckLine[];
    }
  /** A check the engine ran itself (automatic checks at the stop boundary). */
  | { readonly id: number; readonly kind: "check"; readonly check: CheckLine }
  | {
      readonly id: number;
      readonly kind: "turnEnd";
      readonly outcome: TurnOutcome;
      readonly badge: Badge;
      readonly usage: Usage;
      readonly durationMs: number;
      readonly reason?: string;
    }
  | { readonly id: number; readonly kind: "header"; readonly header: Header }
  | { readonly id: number; readonly kind: "info"; readonly text: string }
  /** An engine built-in command's answer (`/cost`), as markdown. */
  | { readonly id: number; readonly kind: "output"; readonly name: string; readonly text: string }
  | {
      readonly id: number;
      readonly kind: "notice";
      readonly level: "info" | "warning" | "error";
      readonly text: string;
    };

/** A tool call that is still running. */
export interface LiveTool {
  readonly toolCallId: string;
  readonly title: string;
  readonly progress: string;
  readonly agentId?: string;
  readonly checks?: readonly CheckLine[];
}

export type Approval = EngineEventOf<"approvalRequested"> & { readonly agentId?: string };

/** A message the user sent in this session: a rewind target. */
export interface Target {
  readonly messageId: string;
  readonly text: string;
}

/** Everything the screen shows, folded from the session's events. */
export interface View {
  readonly items: readonly Item[];
  /** The assistant text streaming now (finished paragraphs have moved to `items`). */
  readonly live: string;
  /** The thinking streaming now (shown only with `[appearance] show_thinking`). */
  readonly thinking: string;
  /** `[appearance] show_thinking`: thinking blocks are shown, dimmed (default true). */
  readonly showThinking: boolean;
  /** `[appearance] theme`: the palette. */
  readonly theme: "system" | "light" | "dark";
  readonly tools: readonly LiveTool[];
  readonly approvals: readonly Approval[];
  readonly questions: readonly Question[];
  readonly plans: readonly Plan[];
  readonly trust?: { readonly projectRoot: string; readonly withheld: readonly string[] };
  /** Whether the project folder is trusted (false until the session says otherwise). */
  readonly trusted: boolean;
  readonly running: boolean;
  readonly mode: PermissionMode;
  readonly model: string;
  readonly usage: Usage;
  readonly badge?: Badge;
  readonly targets: readonly Target[];
  /** The session's `/` commands (its catalog), for completion; empty until the session is open. */
  readonly commands: readonly SlashCommand[];
  /** `/help` was typed before the catalog had loaded: it is answered when the catalog arrives. */
  readonly helpWanted?: boolean;
  /** The main model's context window and what its last request used (tokens), when known. */
  readonly context?: { readonly window: number; readonly used: number };
  /** Calls whose approval was answered, by tool call id, until their line is printed: the card's title and a deny's feedback. */
  readonly answered: Readonly<
    Record<string, { readonly title: string; readonly feedback?: string }>
  >;
}

/** The view before any event. */
export function initialView(init: {
  mode: PermissionMode;
  model: string;
  usage: Usage;
  items?: Item[];
  targets?: Target[];
  trusted?: boolean;
  showThinking?: boolean;
  theme?: View["theme"];
}): View {
  return {
    items: init.items ?? [],
    live: "",
    thinking: "",
    showThinking: init.showThinking ?? true,
    theme: init.theme ?? "system",
    tools: [],
    approvals: [],
    questions: [],
    plans: [],
    trusted: init.trusted ?? false,
    running: false,
    mode: init.mode,
    model: init.model,
    usage: init.usage,
    targets: init.targets ?? [],
    commands: [],
    answered: {},
  };
}

let nextId = 1;
/** A new item id (ids only need to be unique within the process). */
export function itemId(): number {
  return nextId++;
}

/** An item without its id (the view gives it one). */
export type NewItem = Item extends infer I ? (I extends Item ? Omit<I, "id"> : never) : never;

/** The view with one item added at the end. */
export function add(view: View, item: NewItem): View {
  return { ...view, items: [...view.items, { ...item, id: itemId() } as Item] };
}

/** A one-line excerpt of a prompt, at most 50 characters. */
export function short(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 50 ? `${line.slice(0, 49)}…` : line;
}

/** The view with the trust prompt answered or dismissed. */
export function dismissTrust(view: View): View {
  const { trust: _, ...rest } = view;
  return rest;
}

export const without = <T>(list: readonly T[], drop: (x: T) => boolean): T[] =>
  list.filter((x) => !drop(x));
