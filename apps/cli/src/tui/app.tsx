import type { EngineCommand } from "@z-engine/protocol";
import { Box, Text, useInput, useStdin } from "ink";
import { useEffect, useRef, useState, useSyncExternalStore } from "react";
import { activeCard } from "./cards.js";
import type { Completion } from "./complete.js";
import type { PromptHistory } from "./history.js";
import {
  currentCompletions,
  handleKey,
  INITIAL_UI,
  type KeyContext,
  meantKey,
  type Ui,
} from "./keys.js";
import { splitKeys } from "./key-split.js";
import { LiveArea } from "./live-area.js";
import { Panel } from "./panel.js";
import { EditorView, editorRows, StatusLine } from "./status-line.js";
import type { ViewStore } from "./store.js";
import { type Terminal, useTerminal } from "./terminal.js";
import { ExpandedContext, ThemeContext, useColor } from "./theme.js";
import { Transcript } from "./transcript.js";
import { type HandOff, useHandOff } from "./hand-off.js";
import type { HostActions, ScreenHost } from "./ui.js";
import { runUiCommand, withUiCommands } from "./ui-commands.js";
import { add, type View } from "./view.js";

export { UI_COMMANDS } from "./ui-commands.js";

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
  /** The session actions of the UI's own commands (`/clear`, `/resume`, `/memory`); none by default. */
  readonly host?: ScreenHost;
}

/** Rows of the `/` and `@` menu shown at once; it scrolls with the highlight. */
const MENU_ROWS = 8;

const NO_HOST: ScreenHost = {
  clear: () => {},
  sessions: () => Promise.resolve([]),
  resume: () => {},
  memoryFiles: () => Promise.resolve({ choices: [], skipped: [] }),
  editMemory: () => Promise.resolve(),
};

function Menu({ items, selected }: { items: readonly Completion[]; selected: number }) {
  const c = useColor();
  if (items.length === 0) return null;
  const at = selected % items.length;
  const top = Math.max(0, Math.min(at - Math.floor(MENU_ROWS / 2), items.length - MENU_ROWS));
  const shown = items.slice(top, top + MENU_ROWS);
  const below = items.length - top - shown.length;
  return (
    <Box flexDirection="column">
      {top > 0 ? <Text dimColor>{`  ↑ ${top} more`}</Text> : null}
      {shown.map((item, i) => (
        <Text
          key={item.label}
          color={top + i === at ? c("accent") : undefined}
          bold={top + i === at}
          wrap="truncate-end"
        >
          {top + i === at ? "❯ " : "  "}
          {item.label}
          {item.detail ? <Text dimColor> {item.detail}</Text> : null}
        </Text>
      ))}
      {below > 0 ? <Text dimColor>{`  ↓ ${below} more`}</Text> : null}
    </Box>
  );
}

/** The rows the menu takes. */
function menuRows(count: number): number {
  return count === 0 ? 0 : Math.min(count, MENU_ROWS) + (count > MENU_ROWS ? 2 : 0);
}

/** Records each raw key read before ink parses it (ink names Backspace's DEL `delete`). */
function useRawKey() {
  const raw = useRef("");
  const { internal_eventEmitter: emitter } = useStdin();
  useEffect(() => {
    const seen = (data: string) => {
      raw.current = data;
    };
    emitter?.on("input", seen);
    return () => {
      emitter?.off("input", seen);
    };
  }, [emitter]);
  return raw;
}

/** Below the transcript: the live turn, the active card, the input, the menu and the status line. */
function LiveScreen({
  view,
  ui,
  ctx,
  term,
}: {
  view: View;
  ui: Ui;
  ctx: KeyContext;
  term: Terminal;
}) {
  const completions = activeCard(view) || ui.rewind || ui.picker ? [] : currentCompletions(ui, ctx);
  const room = term.rows - 2 - editorRows(ui) - menuRows(completions.length) - (ui.hint ? 1 : 0);
  const card = activeCard(view) !== undefined || ui.rewind !== undefined || ui.picker !== undefined;
  return (
    <Box flexDirection="column">
      <LiveArea view={view} rows={card ? Math.min(3, room) : room} columns={term.columns} />
      <ExpandedContext.Provider value={false}>
        <Panel view={view} ui={ui} rows={room - 3} />
      </ExpandedContext.Provider>
      <EditorView ui={ui} running={view.running} />
      <Menu items={completions} selected={ui.completion} />
      <StatusLine view={view} ui={ui} />
    </Box>
  );
}

/** The host's actions with the screen's own part: the redraw, and the terminal handed to an editor. */
function hostActions(host: ScreenHost, redraw: () => void, handOff: HandOff): HostActions {
  return {
    ...host,
    redraw,
    clear: () => {
      host.clear();
      redraw();
    },
    editMemory: (path) => void host.editMemory(path, handOff),
  };
}

/**
 * `value` as it was when `frozen` became true, while it stays true: while an editor has the
 * terminal nothing is printed over it; what arrived meanwhile shows with the redraw after.
 */
function useFrozen<T>(value: T, frozen: boolean): T {
  const kept = useRef(value);
  if (!frozen) kept.current = value;
  return kept.current;
}

/** The interactive screen: the transcript, the live turn, the active card, the input and the status line. */
export function App(props: AppProps) {
  const live = useSyncExternalStore(props.store.subscribe, props.store.getSnapshot);
  const handedOff = useRef(false);
  const term = useTerminal(handedOff);
  const { suspended, handOff } = useHandOff(handedOff, term.redraw);
  const view = useFrozen(live, suspended);
  const [ui, setUi] = useState<Ui>(INITIAL_UI);
  // The key handler's own copy, ahead of the rendered state while a paste arrives (no render
  // per piece); only the handler changes it.
  const uiRef = useRef(ui);
  const raw = useRawKey();
  const commands = withUiCommands(view.commands);
  const ctx: KeyContext = {
    send: props.send,
    exit: props.exit,
    history: props.history,
    commands,
    files: props.files(),
    now: props.now ?? Date.now,
    local: props.store.change,
    steered: (text) => props.store.change((v) => add(v, { kind: "user", text, steer: true })),
    uiCommand: (text, next) => runUiCommand(text, next, props.store.getSnapshot(), ctx),
    update: (change) => {
      uiRef.current = change(uiRef.current);
      setUi(uiRef.current);
    },
    host: hostActions(props.host ?? NO_HOST, term.redraw, handOff),
  };
  useInput(
    (input, key) => {
      const before = uiRef.current;
      let next = before;
      for (const [i, k] of splitKeys(input, meantKey(raw.current, key)))
        next = handleKey(next, props.store.getSnapshot(), i, k, ctx);
      uiRef.current = next;
      // A bracketed paste still arriving shows nothing yet: no render per piece.
      if (next.paste !== undefined) return;
      if (next.editor.text === "/" && before.editor.text !== "/") props.refreshCommands?.();
      setUi(next);
    },
    { isActive: !suspended },
  );
  const transcript = (
    <Transcript
      items={view.items}
      generation={term.generation}
      columns={term.columns}
      paused={suspended}
    />
  );
  if (suspended)
    return <ThemeContext.Provider value={view.theme}>{transcript}</ThemeContext.Provider>;
  return (
    <ThemeContext.Provider value={view.theme}>
      <ExpandedContext.Provider value={ui.expanded === true}>
        {transcript}
        <LiveScreen view={view} ui={ui} ctx={ctx} term={term} />
      </ExpandedContext.Provider>
    </ThemeContext.Provider>
  );
}
