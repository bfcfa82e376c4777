import type { InteractiveArgs } from "../args.js";
import { guardConsole } from "../console-guard.js";
import type { Io } from "../output/result.js";
import { deferredHistory } from "./history.js";
import { loadInk } from "./load-ink.js";
import { ViewStore } from "./store.js";
import { CommandQueue } from "./opened.js";

export type { Opened, Pick } from "./opened.js";
export { CommandQueue } from "./opened.js";
import { initialView } from "./view.js";

const ZERO = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, costUsd: 0 };

/**
 * Interactive `zeng`: a session in the project folder, on ink when stdin and stdout are
 * terminals, else plain lines (prompts read line by line from stdin). On a terminal the
 * prompt shows before the engine has loaded; what is typed meanwhile is sent once the
 * session is open. Resolves with the exit code when the user leaves; a session that
 * cannot open is one line on stderr (exit 1, or 2 for a `--cwd` that does not exist).
 */
export async function runInteractive(
  args: InteractiveArgs,
  io: Io,
  source: NodeJS.ProcessEnv,
): Promise<number> {
  guardConsole(io.stderr);
  const env: Record<string, string | undefined> = { ...source };
  const tty = process.stdout.isTTY === true && process.stdin.isTTY === true;
  const store = new ViewStore(
    initialView({ mode: args.mode ?? "ask", model: args.model ?? "", usage: ZERO }),
  );
  const queue = new CommandQueue();
  const history = deferredHistory();
  if (!tty) {
    const [{ openInteractive, OpenError }, plain] = await Promise.all([
      import("./open.js"),
      import("./plain.js"),
    ]);
    try {
      const opened = await openInteractive(args, env, source, plain.pickFirst, store);
      return await plain.runPlain(opened, args, io);
    } catch (error) {
      return failed(io, error, OpenError);
    }
  }
  const ink = await loadInk();
  // `--resume` without an id: the picker comes first, the screen after it.
  const screen = args.resume === true ? undefined : ink.mountScreen({ store, queue, history, env });
  const { openInteractive, OpenError } = await import("./open.js");
  try {
    const opened = await openInteractive(args, env, source, ink.pickSession, store);
    return await ink.runInk(opened, args, { store, queue, history, env }, screen);
  } catch (error) {
    screen?.unmount();
    return failed(io, error, OpenError);
  }
}

function failed(io: Io, error: unknown, kind: new (...a: never[]) => Error & { exitCode: number }) {
  io.stderr(`zeng: ${(error as Error).message}\n`);
  return error instanceof kind ? error.exitCode : 1;
}
