import { resolvePaths } from "@z-engine/config";
import { createEngine, type Engine, type SessionHandle } from "@z-engine/engine";
import type { EventEnvelope } from "@z-engine/protocol";
import type { InteractiveArgs } from "../args.js";
import { guardConsole } from "../console-guard.js";
import { takeEnvironment } from "../environment.js";
import type { Io } from "../output/result.js";
import type { SlashCommand } from "./complete.js";
import {
  firstView,
  historyOf,
  OpenError,
  openSession,
  projectFolder,
  sessionToOpen,
  startingState,
} from "./open.js";
import { ViewStore } from "./store.js";

/** What the screen (ink, or plain lines) gets: an open session and its view. */
export interface Opened {
  readonly engine: Engine;
  readonly session: SessionHandle;
  readonly store: ViewStore;
  readonly dataDir: string;
  /** Slash commands of the session's catalog (MCP prompts), filled in once its servers settle. */
  readonly commands: SlashCommand[];
}

async function open(
  args: InteractiveArgs,
  env: Record<string, string | undefined>,
  pickSession: (engine: Engine, root: string) => Promise<string | undefined>,
): Promise<Opened> {
  const root = await projectFolder(args.cwd ?? process.cwd());
  const paths = resolvePaths(env);
  const engine = await createEngine({ paths, env, catalogSource: "settings" });
  try {
    const id =
      args.resume === true
        ? await pickSession(engine, root)
        : await sessionToOpen(engine, args, root);
    const early: EventEnvelope[] = [];
    let sink: (envelope: EventEnvelope) => void = (envelope) => void early.push(envelope);
    const session = await openSession(engine, args, root, id, (envelope) => sink(envelope));
    const history = await historyOf(session, id !== undefined);
    const store = new ViewStore(firstView(startingState(env, paths, root, args), history, args));
    for (const envelope of early) store.dispatch(envelope);
    sink = store.dispatch;
    const commands: SlashCommand[] = [];
    void session.mcp
      .settled()
      .then(() => session.mcp.prompts())
      .then((prompts) => {
        for (const p of prompts)
          commands.push({ name: p.name, description: p.prompt.description ?? "" });
      })
      .catch(() => {});
    return { engine, session, store, dataDir: paths.dataDir, commands };
  } catch (error) {
    await engine.shutdown();
    throw error;
  }
}

/**
 * Interactive `zeng`: a session in the project folder, on ink when stdin and stdout are
 * terminals, else plain lines (prompts read line by line from stdin). Resolves with the
 * exit code when the user leaves; a session that cannot open is one line on stderr.
 */
export async function runInteractive(
  args: InteractiveArgs,
  io: Io,
  source: NodeJS.ProcessEnv,
): Promise<number> {
  guardConsole(io.stderr);
  const env = takeEnvironment(source);
  const tty = process.stdout.isTTY === true && process.stdin.isTTY === true;
  try {
    if (!tty) {
      const { pickFirst, runPlain } = await import("./plain.js");
      const opened = await open(args, env, pickFirst);
      return await runPlain(opened, args, io);
    }
    const { pickSession, runInk } = await import("./ink-host.js");
    const opened = await open(args, env, pickSession);
    return await runInk(opened, args, env);
  } catch (error) {
    if (error instanceof OpenError) {
      io.stderr(`zeng: ${error.message}\n`);
      return error.exitCode;
    }
    io.stderr(`zeng: ${(error as Error).message}\n`);
    return 1;
  }
}
