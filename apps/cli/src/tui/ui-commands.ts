import { closestCommands, type SlashCommand } from "./complete.js";
import * as ed from "./editor.js";
import type { KeyContext, Picker, Ui } from "./ui.js";
import { add, type View } from "./view.js";

/** The commands the UI answers itself (offered after the session's catalog, unless it has the name). */
export const UI_COMMANDS: readonly SlashCommand[] = [
  { name: "help", description: "Show the commands and keys" },
  { name: "clear", description: "Start a new session (this one stays resumable)" },
  { name: "resume", description: "Pick a session of this folder to resume" },
  { name: "rewind", description: "Restore code and conversation to before a message" },
  { name: "memory", description: "Edit an instruction file (AGENTS.md, CLAUDE.md) in your editor" },
  { name: "exit", description: "Leave zeng" },
];

const KEYS = [
  "Enter send · Alt+Enter, Ctrl+J or \\ then Enter: new line · ↑/↓ history",
  "Tab complete @file and /command · Shift+Tab cycle mode (ask → acceptEdits → plan)",
  "Esc interrupt · Esc Esc rewind · Ctrl+C cancel, twice to exit · typing during a turn steers it",
  "Ctrl+O the full transcript (every output unfolded; ↑/↓, PgUp/PgDn, Esc to close)",
  "!command runs a shell command; it and its output join the conversation",
  "Cards: 1-4 or ↑/↓ and Enter · Tab next approval · type feedback, then deny",
  "A paste is kept whole and never sent by itself; a large one shows as [pasted N lines]",
];

/** Engine commands the terminal UI answers itself (the engine's stays for headless runs). */
const OVERRIDDEN = new Set(["memory"]);

/** The UI's own command of a name it answers in place of the engine's. */
const overrideOf = (name: string) =>
  OVERRIDDEN.has(name) ? UI_COMMANDS.find((u) => u.name === name) : undefined;

/** The session's catalog (with the UI's own `/memory` in its place), then the UI's own commands it does not name. */
export function withUiCommands(catalog: readonly SlashCommand[]): SlashCommand[] {
  return [
    ...catalog.map((c) => overrideOf(c.name) ?? c),
    ...UI_COMMANDS.filter((u) => !catalog.some((c) => c.name === u.name)),
  ];
}

/** The view with the catalog in it, and the `/help` asked for before it had loaded answered. */
export function catalogArrived(view: View, commands: readonly SlashCommand[]): View {
  if (!view.helpWanted) return { ...view, commands };
  const next = { ...view, commands, helpWanted: false };
  return add(next, { kind: "info", text: helpText(withUiCommands(commands)) });
}

/** `/help`: every command of the catalog with its description, then the keys. */
export function helpText(commands: readonly SlashCommand[]): string {
  const width = Math.min(24, Math.max(...commands.map((c) => c.name.length + 1)));
  const lines = commands.map((c) => {
    const hint = c.argumentHint ? ` ${c.argumentHint}` : "";
    return `  /${c.name.padEnd(width - 1)} ${c.description}${hint}`;
  });
  return ["Commands:", ...lines, "", "Keys:", ...KEYS.map((k) => `  ${k}`)].join("\n");
}

const info = (ctx: KeyContext, text: string) =>
  ctx.local((v: View) => add(v, { kind: "info", text }));

function picker(title: string, choices: Picker["choices"], pick: Picker["pick"]): Picker {
  return { title, choices, at: 0, pick };
}

/** The slash word of a prompt (`/name rest`), or undefined when it is not one. */
export function slashName(text: string): string | undefined {
  return /^\/([A-Za-z0-9_][\w.:-]*)(\s|$)/.exec(text)?.[1];
}

/**
 * Runs a `/command` the UI answers itself and returns the next Ui, or undefined for text the
 * engine should get (its catalog's commands, prompts). An unknown name is answered here with
 * the closest names of the whole list, the UI's commands included.
 */
export function runUiCommand(text: string, ui: Ui, view: View, ctx: KeyContext): Ui | undefined {
  const name = slashName(text);
  if (name === undefined) return undefined;
  if (!OVERRIDDEN.has(name) && view.commands.some((c) => c.name === name)) return undefined;
  switch (name) {
    case "exit":
    case "quit":
      ctx.exit();
      return ui;
    case "help":
      if (view.commands.length === 0) ctx.local((v: View) => ({ ...v, helpWanted: true }));
      else info(ctx, helpText(ctx.commands));
      return ui;
    case "clear":
      ctx.host.clear();
      return { ...ui, editor: ed.EMPTY };
    case "rewind":
      if (view.running || view.targets.length === 0) {
        info(
          ctx,
          view.running ? "Rewind needs an idle session: Esc first." : "Nothing to rewind yet.",
        );
        return ui;
      }
      return { ...ui, rewind: { at: view.targets.length - 1 } };
    case "resume":
      void ctx.host.sessions().then((choices) => {
        if (choices.length === 0) info(ctx, "No other session of this folder to resume.");
        else
          ctx.update((u) => ({
            ...u,
            picker: picker("Resume which session?", choices, ctx.host.resume),
          }));
      });
      return ui;
    case "memory":
      openMemory(ctx);
      return ui;
    default:
      return unknown(name, ui, ctx);
  }
}

/** `/memory`: the picker of instruction files; picking one opens it in the user's editor. */
function openMemory(ctx: KeyContext): void {
  void ctx.host.memoryFiles().then(({ choices, skipped }) => {
    if (skipped.length > 0) info(ctx, `Not offered (not read): ${skipped.join("; ")}`);
    if (choices.length === 0) info(ctx, "No instruction file to edit.");
    else
      ctx.update((u) => ({
        ...u,
        picker: picker("Edit which instruction file?", choices, ctx.host.editMemory),
      }));
  });
}

function unknown(name: string, ui: Ui, ctx: KeyContext): Ui | undefined {
  // Before the catalog has loaded, the engine answers (its notice names its close matches).
  if (ctx.commands.length <= UI_COMMANDS.length) return undefined;
  const close = closestCommands(
    name,
    ctx.commands.map((c) => c.name),
  );
  const hint = close.length > 0 ? ` Did you mean ${close.map((c) => `/${c}`).join(", ")}?` : "";
  ctx.local((v) =>
    add(v, { kind: "notice", level: "warning", text: `Unknown command /${name}.${hint}` }),
  );
  return ui;
}

/** A key in a picker the UI opened: ↑/↓ or a digit, Enter picks, Esc closes. */
export function pickerKey(
  ui: Ui,
  input: string,
  key: { upArrow: boolean; downArrow: boolean; return: boolean; escape: boolean },
): Ui {
  const p = ui.picker as Picker;
  const count = p.choices.length;
  if (key.escape) return { ...ui, picker: undefined };
  if (key.upArrow || key.downArrow) {
    const at = (p.at + (key.upArrow ? -1 : 1) + count) % Math.max(1, count);
    return { ...ui, picker: { ...p, at } };
  }
  const digit = /^[1-9]$/.test(input) ? Number(input) - 1 : -1;
  const chosen = digit >= 0 && digit < count ? digit : key.return ? p.at : -1;
  const choice = p.choices[chosen];
  if (!choice) return ui;
  p.pick(choice.value);
  return { ...ui, picker: undefined };
}
