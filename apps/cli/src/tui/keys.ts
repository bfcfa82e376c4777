import type { EngineCommand, PermissionMode } from "@z-engine/protocol";
import type { Key } from "ink";
import {
  activeCard,
  approvalChoices,
  choiceCount,
  PLAN_CHOICES,
  questionChoices,
  REWIND_CHOICES,
  TRUST_CHOICES,
} from "./cards.js";
import { type Completion, completionsFor, type SlashCommand } from "./complete.js";
import * as ed from "./editor.js";
import type { PromptHistory } from "./history.js";
import { dismissTrust, type Target, type View } from "./view.js";

/** Two presses of Esc (or Ctrl+C) within this many milliseconds count as a double press. */
export const DOUBLE_PRESS_MS = 800;

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
  /** A `/command` the UI handles itself; true when it was one. */
  readonly uiCommand: (text: string) => boolean;
}

const MODE_CYCLE: Record<PermissionMode, PermissionMode> = {
  ask: "acceptEdits",
  acceptEdits: "plan",
  plan: "ask",
  bypass: "ask",
};

/** The completions shown under the input now. */
export function currentCompletions(
  ui: Ui,
  ctx: Pick<KeyContext, "commands" | "files">,
): Completion[] {
  return completionsFor(ui.editor, ctx.commands, ctx.files);
}

function editKey(e: ed.Editor, input: string, key: Key): ed.Editor | undefined {
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

function submit(ui: Ui, view: View, ctx: KeyContext): Ui {
  const text = ui.editor.text;
  if (text.trim() === "") return ui;
  const next = { ...ui, editor: ed.EMPTY, historyAt: undefined, draft: "", completion: 0 };
  ctx.history.add(text);
  if (ctx.uiCommand(text.trim())) return next;
  if (view.running) {
    ctx.send({ type: "steer", text });
    ctx.steered(text);
  } else ctx.send({ type: "submit", text });
  return next;
}

function walkHistory(ui: Ui, entries: readonly string[], direction: -1 | 1): Ui {
  if (entries.length === 0) return ui;
  const from = ui.historyAt ?? entries.length;
  const at = from + direction;
  if (at < 0) return ui;
  if (at >= entries.length) return { ...ui, historyAt: undefined, editor: ed.editorOf(ui.draft) };
  const draft = ui.historyAt === undefined ? ui.editor.text : ui.draft;
  return { ...ui, historyAt: at, draft, editor: ed.editorOf(entries[at] as string) };
}

function inputKey(ui: Ui, view: View, input: string, key: Key, ctx: KeyContext): Ui {
  const completions = currentCompletions(ui, ctx);
  if (completions.length > 0 && (key.tab || (key.return && !ui.editor.text.includes(" ")))) {
    const pick = completions[ui.completion % completions.length] as Completion;
    const editor = ed.replaceWord(ui.editor, pick.replacement);
    // A command picked with Enter runs at once; a file only completes.
    if (key.return && pick.label.startsWith("/")) return submit({ ...ui, editor }, view, ctx);
    return { ...ui, editor, completion: 0 };
  }
  if (key.return && ui.editor.text.endsWith("\\") && !key.meta) {
    return { ...ui, editor: ed.insert(ed.backspace(ui.editor), "\n") };
  }
  if (key.return && !key.meta) return submit(ui, view, ctx);
  if (key.upArrow || key.downArrow) {
    const direction = key.upArrow ? -1 : 1;
    if (completions.length > 0)
      return {
        ...ui,
        completion: (ui.completion + direction + completions.length) % completions.length,
      };
    const moved = ed.vertical(ui.editor, direction);
    return moved ? { ...ui, editor: moved } : walkHistory(ui, ctx.history.entries, direction);
  }
  const editor = editKey(ui.editor, input, key);
  return editor ? { ...ui, editor, completion: 0 } : ui;
}

function choose(ui: Ui, view: View, index: number, ctx: KeyContext): Ui {
  const card = activeCard(view);
  const reset = { ...ui, choice: 0, field: ed.EMPTY };
  if (card === "trust") {
    ctx.send({ type: "trustWorkspace", trusted: TRUST_CHOICES[index]?.value === true });
    ctx.local(dismissTrust);
    return reset;
  }
  if (card === "approval") {
    const approval = view.approvals[ui.card % view.approvals.length];
    const choice = approval ? approvalChoices(approval)[index] : undefined;
    if (!approval || !choice) return ui;
    const feedback = ui.field.text.trim();
    const decision =
      choice.value.type === "deny" && feedback ? { type: "deny" as const, feedback } : choice.value;
    ctx.send({ type: "resolveApproval", approvalId: approval.approvalId, decision });
    return { ...reset, card: 0 };
  }
  if (card === "plan") {
    const plan = view.plans[0];
    const mode = PLAN_CHOICES[index]?.value;
    if (!plan || mode === undefined) return ui;
    const feedback = ui.field.text.trim();
    ctx.send({
      type: "resolvePlan",
      planId: plan.id,
      approved: mode !== null,
      ...(mode ? { mode } : {}),
      ...(feedback ? { feedback } : {}),
    });
    return reset;
  }
  if (card === "question") return answer(ui, view, index, ctx);
  return ui;
}

function answer(ui: Ui, view: View, index: number, ctx: KeyContext): Ui {
  const question = view.questions[0];
  const q = question?.questions[ui.step];
  if (!question || !q) return ui;
  const typed = ui.field.text.trim();
  const label = questionChoices(question, ui.step)[index]?.value;
  let value = typed || label;
  if (q.multiSelect && !typed) {
    if (index >= 0 && label !== undefined) {
      const picked = ui.picked.includes(label)
        ? ui.picked.filter((p) => p !== label)
        : [...ui.picked, label];
      return { ...ui, picked };
    }
    value = ui.picked.join(", ");
  }
  if (!value) return ui;
  const answers = { ...ui.answers, [q.question]: value };
  const next = { ...ui, answers, picked: [], field: ed.EMPTY, choice: 0 };
  if (ui.step + 1 < question.questions.length) return { ...next, step: ui.step + 1 };
  ctx.send({ type: "answerQuestion", questionId: question.id, answers });
  return { ...next, step: 0, answers: {} };
}

function cardKey(ui: Ui, view: View, input: string, key: Key, ctx: KeyContext): Ui {
  const count = choiceCount(view, activeCard(view), ui.card, ui.step);
  if (key.tab && view.approvals.length > 1 && activeCard(view) === "approval")
    return { ...ui, card: (ui.card + 1) % view.approvals.length, choice: 0 };
  if (key.upArrow || key.downArrow) {
    const d = key.upArrow ? -1 : 1;
    return { ...ui, choice: (ui.choice + d + count) % Math.max(1, count) };
  }
  const digit = /^[1-9]$/.test(input) && ui.field.text === "" ? Number(input) - 1 : -1;
  if (digit >= 0 && digit < count) return choose(ui, view, digit, ctx);
  if (key.return) {
    const question = activeCard(view) === "question";
    // Enter with typed text: the answer (a question), or the feedback with a deny / keep planning.
    if (ui.field.text.trim() !== "" && !question) return choose(ui, view, count - 1, ctx);
    return choose(ui, view, question && ui.field.text.trim() !== "" ? -1 : ui.choice, ctx);
  }
  const field = editKey(ui.field, input, key);
  return field ? { ...ui, field } : ui;
}

function rewindKey(ui: Ui, view: View, input: string, key: Key, ctx: KeyContext): Ui {
  const r = ui.rewind as NonNullable<Ui["rewind"]>;
  if (key.escape) return { ...ui, rewind: undefined, hint: undefined };
  const count = r.target ? REWIND_CHOICES.length : view.targets.length;
  if (key.upArrow || key.downArrow) {
    const at = (r.at + (key.upArrow ? -1 : 1) + count) % Math.max(1, count);
    return { ...ui, rewind: { ...r, at } };
  }
  const digit = /^[1-9]$/.test(input) ? Number(input) - 1 : -1;
  if (!key.return && !(r.target && digit >= 0 && digit < count)) return ui;
  if (!r.target) {
    const target = view.targets[r.at];
    return target ? { ...ui, rewind: { at: 0, target } } : { ...ui, rewind: undefined };
  }
  const restore = REWIND_CHOICES[digit >= 0 ? digit : r.at]?.value ?? "both";
  ctx.send({ type: "rewind", messageId: r.target.messageId as never, restore });
  // The conversation going back puts its prompt back in the input, to edit and send again.
  const editor = restore === "code" ? ui.editor : ed.editorOf(r.target.text);
  return { ...ui, rewind: undefined, editor, hint: undefined };
}

function escapeKey(ui: Ui, view: View, ctx: KeyContext): Ui {
  const now = ctx.now();
  if (view.running) {
    ctx.send({ type: "interrupt" });
    return { ...ui, lastEsc: now, hint: "Interrupted" };
  }
  if (now - ui.lastEsc <= DOUBLE_PRESS_MS && view.targets.length > 0)
    return { ...ui, lastEsc: 0, rewind: { at: view.targets.length - 1 }, hint: undefined };
  const hint = view.targets.length > 0 ? "Esc again to rewind" : undefined;
  return { ...ui, lastEsc: now, completion: 0, ...(hint ? { hint } : {}) };
}

function ctrlC(ui: Ui, view: View, ctx: KeyContext): Ui {
  const now = ctx.now();
  if (view.running) {
    ctx.send({ type: "cancel" });
    return { ...ui, lastCtrlC: now, hint: "Cancelled; Ctrl+C again to exit" };
  }
  if (ui.editor.text !== "") return { ...ui, editor: ed.EMPTY, lastCtrlC: now };
  if (now - ui.lastCtrlC <= 2 * DOUBLE_PRESS_MS) {
    ctx.exit();
    return ui;
  }
  return { ...ui, lastCtrlC: now, hint: "Ctrl+C again to exit" };
}

/** Handles one key press: returns the new Ui; commands go out through `ctx.send`. */
export function handleKey(ui: Ui, view: View, input: string, key: Key, ctx: KeyContext): Ui {
  if (key.ctrl && input === "c") return ctrlC(ui, view, ctx);
  if (key.ctrl && input === "d" && ui.editor.text === "" && !view.running) {
    ctx.exit();
    return ui;
  }
  const cleared = ui.hint && !key.escape ? { ...ui, hint: undefined } : ui;
  if (key.tab && key.shift) {
    ctx.send({ type: "setMode", mode: MODE_CYCLE[view.mode] });
    return cleared;
  }
  if (cleared.rewind) return rewindKey(cleared, view, input, key, ctx);
  if (key.escape) {
    if (activeCard(view) && cleared.field.text !== "") return { ...cleared, field: ed.EMPTY };
    return escapeKey(cleared, view, ctx);
  }
  if (activeCard(view)) return cardKey(cleared, view, input, key, ctx);
  return inputKey(cleared, view, input, key, ctx);
}
