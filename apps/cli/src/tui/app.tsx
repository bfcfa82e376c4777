import { badgeLabel, formatCost, formatTokens } from "./format.js";
import type { EngineCommand } from "@z-engine/protocol";
import { Box, Static, Text, useInput } from "ink";
import { useEffect, useRef, useState, useSyncExternalStore } from "react";
import { activeCard } from "./cards.js";
import type { SlashCommand } from "./complete.js";
import type { PromptHistory } from "./history.js";
import { ItemView, LiveToolView, Markdown } from "./items.js";
import { currentCompletions, handleKey, INITIAL_UI, type KeyContext, type Ui } from "./keys.js";
import { Panel } from "./panel.js";
import type { ViewStore } from "./store.js";
import { useColor } from "./theme.js";
import { itemId, type View } from "./view.js";

/** What the app needs from its host: the view, a way to send commands, and the project's data. */
export interface AppProps {
  readonly store: ViewStore;
  readonly send: (command: EngineCommand) => void;
  readonly exit: () => void;
  readonly history: PromptHistory;
  /** Asks for the session's `/` catalog again (called when a prompt starts with `/`). */
  readonly refreshCommands?: () => void;
  /** The project's files for `@` completion (may fill in later). */
  readonly files: () => readonly string[];
  readonly now?: () => number;
}

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
const EDITOR_LINES = 8;

/** The commands the UI answers itself (offered after the session's catalog, unless it has the name). */
export const UI_COMMANDS: readonly SlashCommand[] = [
  { name: "help", description: "keys and commands" },
  { name: "exit", description: "leave zeng" },
];

const HELP = [
  "Enter send · Alt+Enter, Ctrl+J or \\ then Enter: new line · ↑/↓ history",
  "Tab complete @file and /command · Shift+Tab cycle mode (ask → acceptEdits → plan)",
  "Esc interrupt · Esc Esc rewind · Ctrl+C cancel, twice to exit · typing during a turn steers it",
  "Cards: 1-4 or ↑/↓ and Enter · Tab next approval · type feedback, then deny",
  "A paste is kept whole and never sent by itself; a large one shows as [pasted N lines]",
].join("\n");

function EditorView({ ui, running }: { ui: Ui; running: boolean }) {
  const c = useColor();
  const { text, cursor } = ui.editor;
  const before = text.slice(0, cursor);
  const at = text.slice(cursor, cursor + 1);
  const shown = `${before}\u0000${at === "\n" ? " \n" : at || " "}${text.slice(cursor + 1)}`;
  const lines = shown.split("\n");
  const hidden = Math.max(0, lines.length - EDITOR_LINES);
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={c("dim")} paddingX={1}>
      {hidden > 0 ? (
        <Text dimColor>
          … {hidden} more lines above ({lines.length} lines)
        </Text>
      ) : null}
      {lines.slice(hidden).map((line, i) => {
        const mark = line.indexOf("\u0000");
        const prefix = i + hidden === 0 ? "› " : "  ";
        if (mark < 0)
          // biome-ignore lint/suspicious/noArrayIndexKey: editor lines have no other identity.
          return <Text key={i}>{prefix + line}</Text>;
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: editor lines have no other identity.
          <Text key={i}>
            {prefix + line.slice(0, mark)}
            <Text inverse>{line.slice(mark + 1, mark + 2)}</Text>
            {line.slice(mark + 2)}
            {text === "" ? (
              <Text dimColor>
                {running
                  ? " type to steer the running turn"
                  : " type a message, / for commands, @ for files"}
              </Text>
            ) : null}
          </Text>
        );
      })}
    </Box>
  );
}

function StatusLine({ view, ui }: { view: View; ui: Ui }) {
  const c = useColor();
  const badge = view.badge ? ` · ${badgeLabel(view.badge)}` : "";
  return (
    <Box flexDirection="column">
      {ui.hint ? <Text color={c("warn")}>{ui.hint}</Text> : null}
      <Text wrap="truncate-end">
        <Text color={view.mode === "ask" ? undefined : c("warn")} bold>
          {view.mode}
        </Text>
        <Text dimColor>
          {" "}
          (⇧⇥) · {formatTokens(view.usage)} · {formatCost(view.usage.costUsd)}
          {badge} · {view.model}
        </Text>
      </Text>
    </Box>
  );
}

function useSpinner(running: boolean): string {
  const [frame, setFrame] = useState(0);
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setFrame((f) => (f + 1) % FRAMES.length), 120);
    return () => clearInterval(timer);
  }, [running]);
  return FRAMES[frame] as string;
}

/** The interactive screen: the transcript, the live turn, the active card, the input and the status line. */
export function App(props: AppProps) {
  const view = useSyncExternalStore(props.store.subscribe, props.store.getSnapshot);
  const [ui, setUi] = useState<Ui>(INITIAL_UI);
  // The key handler's own copy, ahead of the rendered state while a paste arrives (no render
  // per piece); only the handler changes it.
  const uiRef = useRef(ui);
  const c = useColor();
  const frame = useSpinner(view.running);
  const commands = [
    ...view.commands,
    ...UI_COMMANDS.filter((u) => !view.commands.some((c) => c.name === u.name)),
  ];
  const ctx: KeyContext = {
    send: props.send,
    exit: props.exit,
    history: props.history,
    commands,
    files: props.files(),
    now: props.now ?? Date.now,
    local: props.store.change,
    steered: (text) =>
      props.store.change((v) => ({
        ...v,
        items: [...v.items, { id: itemId(), kind: "user", text, steer: true }],
      })),
    uiCommand: (text) => {
      // A catalog command of the same name wins over the UI's own.
      if (view.commands.some((c) => `/${c.name}` === text)) return false;
      if (text === "/exit" || text === "/quit") props.exit();
      else if (text === "/help")
        props.store.change((v) => ({
          ...v,
          items: [...v.items, { id: itemId(), kind: "info", text: HELP }],
        }));
      else return false;
      return true;
    },
  };
  useInput((input, key) => {
    const before = uiRef.current;
    const next = handleKey(before, props.store.getSnapshot(), input, key, ctx);
    uiRef.current = next;
    // A bracketed paste still arriving shows nothing yet: no render per piece.
    if (next.paste !== undefined) return;
    if (next.editor.text === "/" && before.editor.text !== "/") props.refreshCommands?.();
    setUi(next);
  });
  const completions = activeCard(view) || ui.rewind ? [] : currentCompletions(ui, ctx);
  return (
    <>
      <Static items={view.items as View["items"][number][]}>
        {(item) => <ItemView key={item.id} item={item} />}
      </Static>
      <Box flexDirection="column">
        {view.live ? <Markdown text={view.live} /> : null}
        {view.tools.map((tool) => (
          <LiveToolView key={tool.toolCallId} tool={tool} frame={frame} />
        ))}
        {view.running && view.tools.length === 0 && !view.live ? (
          <Text color={c("accent")}>{frame} working… (Esc to interrupt)</Text>
        ) : null}
        <Panel view={view} ui={ui} />
        <EditorView ui={ui} running={view.running} />
        {completions.map((item, i) => (
          <Text
            key={item.label}
            color={i === ui.completion % completions.length ? c("accent") : undefined}
            wrap="truncate-end"
          >
            {"  "}
            {item.label}
            {item.detail ? <Text dimColor> {item.detail}</Text> : null}
          </Text>
        ))}
        <StatusLine view={view} ui={ui} />
      </Box>
    </>
  );
}
