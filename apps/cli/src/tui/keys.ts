import type { PermissionMode } from "@z-engine/protocol";
import type { Key } from "ink";
import { activeCard } from "./cards.js";
import { cardKey, rewindKey } from "./card-keys.js";
import { type Completion, completionsFor } from "./complete.js";
import * as ed from "./editor.js";
import {
  expandPastes,
  isLargePaste,
  normalizePaste,
  PASTE_END,
  PASTE_START,
  pasteChunk,
  placeholderFor,
} from "./paste.js";
import { DOUBLE_PRESS_MS, editKey, type KeyContext, type Ui } from "./ui.js";
import { pickerKey } from "./ui-commands.js";
import type { View } from "./view.js";

export { DOUBLE_PRESS_MS, INITIAL_UI, type KeyContext, type Ui } from "./ui.js";

/**
 * The key as the user meant it: ink names DEL (0x7f, what Backspace sends in most terminals)
 * `delete`, so the raw bytes tell Backspace from the Delete key (ESC [ 3 ~). Pure.
 */
export function meantKey(raw: string, key: Key): Key {
  if (key.delete && (raw === "\u007F" || raw === "\u001B\u007F"))
    return { ...key, delete: false, backspace: true };
  return key;
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

function submit(ui: Ui, view: View, ctx: KeyContext): Ui {
  const text = expandPastes(ui.editor.text, ui.pastes);
  if (text.trim() === "") return ui;
  const next = {
    ...ui,
    editor: ed.EMPTY,
    historyAt: undefined,
    draft: "",
    completion: 0,
    pastes: {},
  };
  ctx.history.add(text);
  // `!command`: a shell line the user runs; it and its output join the conversation.
  if (text.startsWith("!") && text.slice(1).trim() !== "") {
    ctx.send({ type: "runCommand", name: "bash", args: text.slice(1).trim() });
    return next;
  }
  const answered = ctx.uiCommand(text.trim(), next);
  if (answered) return answered;
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

function escapeKey(ui: Ui, view: View, ctx: KeyContext): Ui {
  const now = ctx.now();
  if (view.running) {
    // The turn's end line says "interrupted by user": no hint of its own.
    ctx.send({ type: "interrupt" });
    return { ...ui, lastEsc: now };
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

/**
 * Pasted text, inserted as one piece (never sent): into the open card's field on one line,
 * else into the input, where a large paste shows as a `[pasted N lines]` placeholder that
 * stands for the whole text when the prompt is sent.
 */
export function pasteText(ui: Ui, view: View, raw: string): Ui {
  const text = normalizePaste(raw);
  if (ui.rewind || text === "") return ui;
  if (activeCard(view)) return { ...ui, field: ed.insert(ui.field, text.replace(/\n/g, " ")) };
  if (!isLargePaste(text)) return { ...ui, editor: ed.insert(ui.editor, text), completion: 0 };
  const placeholder = placeholderFor(text, ui.pastes);
  return {
    ...ui,
    editor: ed.insert(ui.editor, placeholder),
    pastes: { ...ui.pastes, [placeholder]: text },
    completion: 0,
  };
}

/** A bracketed paste: its start marker, its text in any number of reads, its end marker. */
function pasteKey(ui: Ui, view: View, input: string, key: Key): Ui | undefined {
  if (ui.paste !== undefined) {
    // Ctrl+C drops a paste whose end never came (and is handled as itself).
    if (key.ctrl && input === "c") return undefined;
    if (input !== PASTE_END) return { ...ui, paste: ui.paste + pasteChunk(input, key) };
    const { paste: _, ...rest } = ui;
    return pasteText(rest, view, ui.paste);
  }
  if (input === PASTE_START) return { ...ui, paste: "" };
  // Without bracketed paste, a read of several characters with a line break is a paste too.
  if (input.length > 1 && /[\r\n]/.test(input) && !key.ctrl && !key.meta)
    return pasteText(ui, view, input);
  return undefined;
}

/** The trust card takes ↑/↓, Enter and (with an empty input) a digit; typing goes to the input. */
function trustKey(ui: Ui, view: View, input: string, key: Key, ctx: KeyContext): Ui {
  const answers =
    key.upArrow || key.downArrow || key.return || (/^[1-9]$/.test(input) && ui.editor.text === "");
  if (answers) return cardKey(ui, view, input, key, ctx);
  const editor = editKey(ui.editor, input, key);
  return editor ? { ...ui, editor, completion: 0 } : ui;
}

/** Ctrl+O: every output whole, or folded again; the transcript is printed again either way. */
function toggleExpanded(ui: Ui, ctx: KeyContext): Ui {
  ctx.host.redraw();
  return { ...ui, expanded: !ui.expanded };
}

/** Handles one key press: returns the new Ui; commands go out through `ctx.send`. */
export function handleKey(current: Ui, view: View, input: string, key: Key, ctx: KeyContext): Ui {
  const pasted = pasteKey(current, view, input, key);
  if (pasted) return pasted;
  const { paste: _, ...ui } = current;
  if (key.ctrl && input === "o") return toggleExpanded(ui, ctx);
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
  if (cleared.picker) return pickerKey(cleared, input, key);
  if (cleared.rewind) return rewindKey(cleared, view, input, key, ctx);
  if (activeCard(view) === "trust" && !key.escape) return trustKey(cleared, view, input, key, ctx);
  if (key.escape) {
    if (activeCard(view) && cleared.field.text !== "") return { ...cleared, field: ed.EMPTY };
    return escapeKey(cleared, view, ctx);
  }
  if (activeCard(view)) return cardKey(cleared, view, input, key, ctx);
  return inputKey(cleared, view, input, key, ctx);
}
