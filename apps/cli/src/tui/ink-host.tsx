import type { Engine } from "@z-engine/engine";
import { Box, render, Text, useApp, useInput } from "ink";
import { useState } from "react";
import type { InteractiveArgs } from "../args.js";
import { App } from "./app.js";
import { listProjectFiles } from "./complete.js";
import { type DeferredHistory, openHistory } from "./history.js";
import { nextTurn } from "./next-turn.js";
import { BRACKETED_PASTE_OFF, BRACKETED_PASTE_ON } from "./paste.js";
import type { CommandQueue, Opened } from "./opened.js";
import type { ViewStore } from "./store.js";
import { ColorContext, colorsWanted } from "./theme.js";
import { short } from "./view.js";
import { resumable } from "./resumable.js";
import { hostActions } from "./session-host.js";
import type { ScreenHost } from "./ui.js";

const INK_OPTIONS = { exitOnCtrlC: false, patchConsole: false } as const;

interface Choice {
  readonly id: string;
  readonly label: string;
}

function Picker({ choices, done }: { choices: Choice[]; done: (id: string | undefined) => void }) {
  const [at, setAt] = useState(0);
  const app = useApp();
  useInput((_, key) => {
    if (key.upArrow || key.downArrow)
      setAt((a) => (a + (key.upArrow ? -1 : 1) + choices.length) % choices.length);
    if (key.return || key.escape) {
      done(key.return ? choices[at]?.id : undefined);
      app.exit();
    }
  });
  return (
    <Box flexDirection="column">
      <Text bold>Resume which session? (↑/↓, Enter; Esc starts a new one)</Text>
      {choices.map((c, i) => (
        <Text key={c.id} inverse={i === at}>
          {c.label}
        </Text>
      ))}
    </Box>
  );
}

/** `--resume` without an id: the project's sessions with messages, newest first, to pick from. */
export async function pickSession(engine: Engine, root: string): Promise<string | undefined> {
  const sessions = (await resumable(engine, root)).slice(0, 15);
  if (sessions.length === 0) return undefined;
  const choices = sessions.map((s) => ({
    id: s.id,
    label: `${new Date(s.updatedAt).toISOString().slice(0, 16).replace("T", " ")}  ${short(s.title ?? s.id)} (${s.messageCount} messages)`,
  }));
  let picked: string | undefined;
  const instance = render(<Picker choices={choices} done={(id) => (picked = id)} />, INK_OPTIONS);
  await instance.waitUntilExit();
  instance.clear();
  return picked;
}

/** What the screen is built from before the session opens. */
export interface ScreenParts {
  readonly store: ViewStore;
  readonly queue: CommandQueue;
  readonly history: DeferredHistory;
  readonly env: Record<string, string | undefined>;
}

/** The mounted screen: leaving it resolves `left`. */
export interface Screen {
  readonly left: Promise<void>;
  /** Session data the screen shows once the session is open. */
  attach(opened: Opened): void;
  unmount(): void;
}

/** Bracketed paste mode on while the screen is up, off again when it goes (also on exit). */
function bracketedPaste(): () => void {
  const off = () => void process.stdout.write(BRACKETED_PASTE_OFF);
  process.stdout.write(BRACKETED_PASTE_ON);
  process.once("exit", off);
  return () => {
    process.off("exit", off);
    off();
  };
}

/** Back to the line's start, the line erased (xterm's CR, EL 2). */
const ERASE_LINE = "\r\u001B[2K";

/** Renders the screen at once (the prompt takes keys before the session is open). */
export function mountScreen(parts: ScreenParts): Screen {
  // Keys typed while zeng was starting were echoed by the terminal on the cursor's line; the
  // input box gets them, so the echo would only be a ghost above the screen.
  if (process.stdout.isTTY) process.stdout.write(ERASE_LINE);
  const pasteOff = bracketedPaste();
  let files: readonly string[] = [];
  let opened: Opened | undefined;
  let actions: ScreenHost | undefined;
  let attached: (a: ScreenHost) => void = () => {};
  const ready = new Promise<ScreenHost>((resolve) => {
    attached = resolve;
  });
  // The App gets its actions before the session is open; they do nothing until it is.
  const host: ScreenHost = {
    clear: () => actions?.clear(),
    sessions: () => actions?.sessions() ?? Promise.resolve([]),
    resume: (id) => actions?.resume(id),
    // `/memory` typed while the session opens is answered once it is open.
    memoryFiles: () => ready.then((a) => a.memoryFiles()),
    editMemory: (path, handOff) => actions?.editMemory(path, handOff) ?? Promise.resolve(),
  };
  let resolveLeft: () => void = () => {};
  const left = new Promise<void>((resolve) => {
    resolveLeft = resolve;
  });
  const instance = render(
    <ColorContext.Provider value={colorsWanted(parts.env)}>
      <App
        store={parts.store}
        send={parts.queue.send}
        exit={() => resolveLeft()}
        history={parts.history}
        refreshCommands={() => opened?.slot.refreshCommands()}
        files={() => files}
        host={host}
      />
    </ColorContext.Provider>,
    INK_OPTIONS,
  );
  void instance.waitUntilExit().then(() => resolveLeft());
  return {
    left,
    attach: (o) => {
      opened = o;
      actions = hostActions(o, parts.queue, parts.env);
      attached(actions);
      // On a turn of its own: spawning git blocks for milliseconds, and this turn has just
      // folded a resumed session's history and drawn it.
      void nextTurn()
        .then(() => listProjectFiles(o.slot.session.projectRoot))
        .then((list) => {
          files = list;
        });
    },
    unmount: () => {
      instance.unmount();
      pasteOff();
    },
  };
}

/** Runs the interactive screen until the user leaves; resolves with the exit code. */
export async function runInk(
  opened: Opened,
  args: InteractiveArgs,
  parts: ScreenParts,
  mounted: Screen | undefined,
): Promise<number> {
  const { engine } = opened;
  const session = opened.slot.session;
  const screen = mounted ?? mountScreen(parts);
  parts.history.attach(openHistory(opened.dataDir, session.projectRoot));
  screen.attach(opened);
  if (args.prompt) {
    parts.history.add(args.prompt);
    session.send({ type: "submit", text: args.prompt });
  }
  parts.queue.attach(session);
  const signalled = new Promise<void>((resolve) => {
    process.once("SIGTERM", resolve);
    process.once("SIGHUP", resolve);
  });
  await Promise.race([screen.left, signalled]);
  screen.unmount();
  await engine.shutdown();
  await opened.flushTelemetry();
  const last = opened.slot.session.id;
  process.stdout.write(`zeng: session ${last} (zeng --resume ${last})\n`);
  return 0;
}
