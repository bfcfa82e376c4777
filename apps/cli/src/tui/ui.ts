import type { EngineCommand } from "@z-engine/protocol";
import type { Key } from "ink";
import type { SlashCommand } from "./complete.js";
import * as ed from "./editor.js";
import type { HandOff } from "./hand-off.js";
import type { MemoryChoices } from "./memory-choices.js";
import type { PromptHistory } from "./history.js";
import type { Pastes } from "./paste.js";
import type { Target, View } from "./view.js";

/** Two presses of Esc (or Ctrl+C) within this many milliseconds count as a double press. */
export const DOUBLE_PRESS_MS = 800;

/** A list card the UI opened itself (`/resume`, `/memory`): its choices and what picking does. */
export interface Picker {
  readonly title: string;
  readonly choices: readonly { readonly label: string; readonly value: string }[];
  readonly at: number;
  readonly pick: (value: string) => void;
}

/** The input's own state (what is not the engine's). */
export interface Ui {
  readonly editor: ed.Editor;
  /** The text field of the active card (deny feedback, a typed answer, plan feedback). */
  readonly field: ed.Editor;
  /** Which approval card has the keys, and the highlighted choice. */
  readonly card: number;
  readonly choice: number;
  /** Answers gathered so far for the open question, and which of its questions is shown. */
  readonly answers: Readonly<Record<string, string>>;
  readonly step: number;
  readonly picked: readonly string[];
  readonly historyAt: number | undefined;
  readonly draft: string;
  readonly completion: number;
  readonly rewind?: { readonly at: number; readonly target?: Target };
  readonly lastEsc: number;
  readonly lastCtrlC: number;
  readonly hint?: string;
  /** A bracketed paste being received (its text so far), until its end marker. */
  readonly paste?: string;
  /** Collapsed pastes in the editor: placeholder -> the full text sent in its place. */
  readonly pastes: Pastes;
  readonly picker?: Picker;
  /** Ctrl+O: every tool output is printed whole (the transcript is printed again each way). */
  readonly expanded?: boolean;
}

export const INITIAL_UI: Ui = {
  editor: ed.EMPTY,
  field: ed.EMPTY,
  card: 0,
  choice: 0,
  answers: {},
  step: 0,
  picked: [],
  historyAt: undefined,
  draft: "",
  completion: 0,
  lastEsc: 0,
  lastCtrlC: 0,
  pastes: {},
};

/** What a key handler may do besides changing the Ui. */
export interface KeyContext {
  readonly send: (command: EngineCommand) => void;
  readonly exit: () => void;
  readonly history: PromptHistory;
  readonly commands: readonly SlashCommand[];
  readonly files: readonly string[];
  readonly now: () => number;
  /** A prompt typed while a turn runs joins it as steering (shown in the transcript). */
  readonly steered: (text: string) => void;
  /** Changes the view locally (the trust prompt answered, which the engine does not echo). */
  readonly local: (change: (view: View) => View) => void;
  /** A `/command` the UI handles itself: the next Ui when it was one. */
  readonly uiCommand: (text: string, ui: Ui) => Ui | undefined;
  /** Changes the Ui later (an answer that arrives after the key, such as the sessions to resume). */
  readonly update: (change: (ui: Ui) => Ui) => void;
  /** What the terminal host does for the UI's own commands and keys. */
  readonly host: HostActions;
}

/** What keys and the UI's commands may ask of the host (the terminal and the open session). */
export interface HostActions {
  /** Clears the screen and scrollback and prints the transcript again (Ctrl+O folds or unfolds). */
  redraw(): void;
  /** `/clear`: a new session in the folder (the old one stays resumable). */
  clear(): void;
  /** The folder's other sessions to resume, newest first. Never rejects. */
  sessions(): Promise<readonly { readonly label: string; readonly value: string }[]>;
  /** Switches to a stored session. */
  resume(id: string): void;
  /** `/memory`: the instruction files to offer (those there, a new project file). Never rejects. */
  memoryFiles(): Promise<MemoryChoices>;
  /**
   * Opens an instruction file in the user's editor, the terminal handed to it until it exits,
   * then has the session read the instructions again at its next turn; what happened is one
   * line in the transcript. Never throws.
   */
  editMemory(path: string): void;
}

/** What the screen's host does for the App; the App supplies the redraw and the terminal hand-off. */
export type ScreenHost = Omit<HostActions, "redraw" | "editMemory"> & {
  /** {@link HostActions.editMemory}, the editor run inside `handOff`. Never rejects. */
  editMemory(path: string, handOff: HandOff): Promise<void>;
};

/** The editing keys of the input and of a card's text field; undefined for any other key. */
export function editKey(e: ed.Editor, input: string, key: Key): ed.Editor | undefined {
  if (key.backspace) return ed.backspace(e);
  if (key.delete) return ed.deleteForward(e);
  if (key.leftArrow) return ed.left(e);
  if (key.rightArrow) return ed.right(e);
  if (key.home || (key.ctrl && input === "a")) return ed.home(e);
  if (key.end || (key.ctrl && input === "e")) return ed.end(e);
  if (key.ctrl && input === "u") return ed.killToStart(e);
  if (key.ctrl && input === "w") return ed.deleteWord(e);
  if ((key.return && key.meta) || (key.ctrl && input === "j")) return ed.insert(e, "\n");
  if (key.ctrl || key.meta || key.escape || key.tab || key.upArrow || key.downArrow)
    return undefined;
  if (key.return) return undefined;
  if (input === "") return undefined;
  return ed.insert(e, input);
}
