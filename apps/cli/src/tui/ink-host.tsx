import type { Engine } from "@z-engine/engine";
import { Box, render, Text, useApp, useInput } from "ink";
import { useState } from "react";
import type { InteractiveArgs } from "../args.js";
import { App } from "./app.js";
import { listProjectFiles } from "./complete.js";
import { openHistory } from "./history.js";
import type { Opened } from "./run.js";
import { ColorContext, colorsWanted } from "./theme.js";
import { short } from "./view.js";

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

/** `--resume` without an id: the project's sessions, newest first, to pick from. */
export async function pickSession(engine: Engine, root: string): Promise<string | undefined> {
  const sessions = (await engine.listSessions()).filter((s) => s.projectRoot === root).slice(0, 15);
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

/** Runs the interactive screen until the user leaves; resolves with the exit code. */
export async function runInk(
  opened: Opened,
  args: InteractiveArgs,
  env: Record<string, string | undefined>,
): Promise<number> {
  const { engine, session, store } = opened;
  const history = openHistory(opened.dataDir, session.projectRoot);
  let files: readonly string[] = [];
  let leaving: Promise<void> | undefined;
  const leave = () => {
    leaving ??= (async () => {
      instance.unmount();
      await engine.shutdown();
    })();
  };
  const onTerm = () => leave();
  process.on("SIGTERM", onTerm);
  process.on("SIGHUP", onTerm);
  const instance = render(
    <ColorContext.Provider value={colorsWanted(env)}>
      <App
        store={store}
        send={(command) => session.send(command)}
        exit={leave}
        history={history}
        commands={() => opened.commands}
        files={() => files}
      />
    </ColorContext.Provider>,
    INK_OPTIONS,
  );
  void listProjectFiles(session.projectRoot).then((list) => {
    files = list;
  });
  if (args.prompt) {
    history.add(args.prompt);
    session.send({ type: "submit", text: args.prompt });
  }
  await instance.waitUntilExit();
  leave();
  await leaving;
  process.off("SIGTERM", onTerm);
  process.off("SIGHUP", onTerm);
  process.stdout.write(`zeng: session ${session.id} (zeng --resume ${session.id})\n`);
  return 0;
}
