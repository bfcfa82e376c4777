import type { AgentContext, EnvVariable, TerminalHandle } from "@agentclientprotocol/sdk";
import type {
  BackgroundProcess,
  CommandRequest,
  Shell,
  ShellCommandResult,
} from "@z-engine/engine";
import type { ArtifactRef } from "@z-engine/protocol";
import { cutOutput } from "./output-cut.js";

/** What the terminal shell takes of its ACP session. */
export interface TerminalHost {
  readonly client: AgentContext;
  readonly sessionId: string;
  /** A terminal now runs the command of a tool call: show it in that call. */
  readonly onTerminal: (toolCallId: string, terminalId: string) => void;
}

/** Output a client keeps per terminal (it drops the start beyond this; ACP's `outputByteLimit`). */
const OUTPUT_BYTE_LIMIT = 1024 * 1024;
/** How often a background terminal's output is read for `readNewOutput`. */
const POLL_MS = 500;

function envList(env: CommandRequest["env"]): EnvVariable[] {
  return Object.entries(env ?? {}).flatMap(([name, value]) =>
    value === undefined ? [] : [{ name, value }],
  );
}

function failed(error: unknown, started: number): ShellCommandResult {
  const reason = error instanceof Error ? error.message : String(error);
  return {
    exitCode: null,
    signal: null,
    output: "",
    truncated: false,
    artifact: null,
    timedOut: false,
    cancelled: false,
    durationMs: Date.now() - started,
    error: `the editor could not run it in a terminal: ${reason}`,
  };
}

async function collect(
  term: TerminalHandle,
  request: Pick<CommandRequest, "artifacts" | "maxOutputChars">,
): Promise<{ output: string; truncated: boolean; artifact: ArtifactRef | null }> {
  const { output, truncated } = await term.currentOutput();
  const kept = await cutOutput(output, request.maxOutputChars, request.artifacts);
  const lost = truncated ? "[the terminal kept only the end of the output]\n" : "";
  return { ...kept, output: lost + kept.output, truncated: kept.truncated || truncated };
}

/**
 * A {@link Shell} over an ACP client's terminals (`terminal/create`, `wait_for_exit`, `output`,
 * `kill`, `release`): each command runs as `<program> -c <command>` in a new terminal in the
 * request's folder with the request's extra variables (the client's own environment below
 * them: the engine's secret scrubbing is the editor's business there), and a Bash call's
 * terminal is shown in that call (`onTerminal`). Timeouts and cancellation kill it; the output
 * is cut like the host's shells do. Never rejects: a terminal that cannot start is a result
 * with `error`.
 */
export function clientTerminalShell(host: TerminalHost, program = "bash"): Shell {
  const create = (request: CommandRequest) =>
    host.client.createTerminal({
      sessionId: host.sessionId,
      command: program,
      args: ["-c", request.command],
      env: envList(request.env),
      cwd: request.cwd,
      outputByteLimit: OUTPUT_BYTE_LIMIT,
    });
  return {
    run: async (request) => {
      const started = Date.now();
      let term: TerminalHandle;
      try {
        term = await create(request);
      } catch (error) {
        return failed(error, started);
      }
      if (request.toolCallId) host.onTerminal(request.toolCallId, term.id);
      return runToExit(term, request, started);
    },
    spawnBackground: (request) => backgroundTerminal(create(request)),
  };
}

async function runToExit(
  term: TerminalHandle,
  request: CommandRequest,
  started: number,
): Promise<ShellCommandResult> {
  let timedOut = false;
  let cancelled = false;
  const kill = () => void term.kill().catch(() => {});
  const timer =
    request.timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          kill();
        }, request.timeoutMs);
  const onAbort = () => {
    cancelled = true;
    kill();
  };
  if (request.signal?.aborted) onAbort();
  else request.signal?.addEventListener("abort", onAbort, { once: true });
  try {
    const exit = await term.waitForExit();
    const kept = await collect(term, request);
    return {
      exitCode: timedOut || cancelled ? null : (exit.exitCode ?? null),
      signal: exit.signal ?? null,
      ...kept,
      timedOut,
      cancelled,
      durationMs: Date.now() - started,
    };
  } catch (error) {
    return { ...failed(error, started), timedOut, cancelled };
  } finally {
    clearTimeout(timer);
    request.signal?.removeEventListener("abort", onAbort);
    void term.release().catch(() => {});
  }
}

/**
 * A background command in a client terminal: its output is read every half second while it
 * runs (`readNewOutput` is synchronous), and once at its end.
 */
function backgroundTerminal(made: Promise<TerminalHandle>): BackgroundProcess {
  let output = "";
  let read = 0;
  let running = true;
  let term: TerminalHandle | undefined;
  const started = Date.now();
  const refresh = async () => {
    if (!term) return;
    const now = await term.currentOutput().catch(() => undefined);
    // A client that dropped the start of the output: what was read is gone too.
    if (now && now.output.length < read) read = 0;
    if (now) output = now.output;
  };
  const done: Promise<ShellCommandResult> = made.then(
    async (t) => {
      term = t;
      const timer = setInterval(() => void refresh(), POLL_MS);
      timer.unref();
      try {
        const exit = await t.waitForExit();
        await refresh();
        return {
          exitCode: exit.exitCode ?? null,
          signal: exit.signal ?? null,
          output,
          truncated: false,
          artifact: null,
          timedOut: false,
          cancelled: false,
          durationMs: Date.now() - started,
        };
      } catch (error) {
        return failed(error, started);
      } finally {
        clearInterval(timer);
        running = false;
        void t.release().catch(() => {});
      }
    },
    (error: unknown) => {
      running = false;
      return failed(error, started);
    },
  );
  return {
    pid: undefined,
    get running() {
      return running;
    },
    readNewOutput: () => {
      const fresh = output.slice(read);
      read = output.length;
      return fresh;
    },
    kill: async () => {
      await made.then((t) => t.kill()).catch(() => {});
      await done;
    },
    done,
  };
}
