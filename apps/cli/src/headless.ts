// First: zod's switch must be set before any schema is built (the file says why).
import "./zod-interpreted.js";
import { realpath, stat } from "node:fs/promises";
import { resolve } from "node:path";
import { type Env, resolvePaths } from "@z-engine/config";
import {
  createEngine,
  type Engine,
  parseSlashPrompt,
  runStructured,
  type SessionHandle,
  type SessionOverrides,
  type TurnSummary,
} from "@z-engine/engine";
import { emptyUsage } from "@z-engine/protocol";
import type { HeadlessArgs } from "./args.js";
import { DialectError, type DialectSetup, dialectSetup } from "./dialect-setup.js";
import { EXIT, exitCodeFor } from "./exit-codes.js";
import { runStreamInput, type Stdin, stdinPrompt } from "./headless-input.js";
import { guardConsole } from "./console-guard.js";
import { startHostTelemetry } from "./host-telemetry.js";
import { favourMemory } from "./memory-tuning.js";
import { outputFor } from "./output/formatter.js";
import { showsThinking } from "./output/text.js";
import type { Io, OutputFormatter, RunEnd } from "./output/result.js";
import { watchSignals } from "./signals.js";

/** A failure before the turn: its exit code and one line for stderr. */
class SetupError extends Error {
  constructor(
    readonly exitCode: number,
    message: string,
  ) {
    super(message);
  }
}

async function projectFolder(dir: string): Promise<string> {
  const full = resolve(dir);
  const info = await stat(full).catch(() => undefined);
  if (!info?.isDirectory()) throw new SetupError(EXIT.usage, `--cwd ${dir}: no such folder`);
  return realpath(full);
}

export { takeEnvironment } from "./environment.js";

function overridesOf(args: HeadlessArgs, dialect: DialectSetup): SessionOverrides {
  return {
    ...dialect.overrides,
    ...(args.mode ? { mode: args.mode } : {}),
    ...(args.model ? { model: args.model } : {}),
    ...(args.maxTurns ? { maxTurns: args.maxTurns } : {}),
  };
}

async function openSession(
  engine: Engine,
  args: HeadlessArgs,
  projectRoot: string,
  dialect: DialectSetup,
): Promise<SessionHandle> {
  const overrides = overridesOf(args, dialect);
  let id = args.resume;
  if (args.continue) {
    const latest = await engine.latestSession(projectRoot);
    if (!latest) throw new SetupError(EXIT.failed, `no session to continue in ${projectRoot}`);
    id = latest.id;
  }
  const named = args.sessionId ? { ...overrides, sessionId: args.sessionId } : overrides;
  if (id === undefined && !args.sessionId) return engine.createSession(projectRoot, overrides);
  if (id === undefined)
    return engine.createSession(projectRoot, named).catch((error: Error) => {
      throw new SetupError(
        EXIT.failed,
        `cannot create session ${args.sessionId}: ${error.message}`,
      );
    });
  try {
    return args.forkSession
      ? await engine.forkSession(id, named)
      : await engine.openSession(id, overrides);
  } catch (error) {
    const what = args.forkSession ? "fork" : "resume";
    throw new SetupError(EXIT.failed, `cannot ${what} ${id}: ${(error as Error).message}`);
  }
}

/** Cancelled before any turn ran: the result says so. */
function cancelledEarly(output: OutputFormatter, sessionId: string): number {
  output.finish({
    outcome: "cancelled",
    reason: "cancelled before the turn started",
    usage: emptyUsage(),
    badge: { status: "notApplicable", reason: "no turn ran", checks: [] },
    durationMs: 0,
    sessionId,
  });
  return EXIT.cancelled;
}

/** Where a run's prompt comes from and what it needs besides the session. */
interface RunInput {
  readonly dialect: DialectSetup;
  readonly stdin: Stdin;
  readonly warn: (message: string) => void;
  /** Called once the session is open, before its first turn. */
  readonly opened: (session: SessionHandle) => Promise<void>;
}

async function runTurn(
  engine: Engine,
  args: HeadlessArgs,
  projectRoot: string,
  output: OutputFormatter,
  input: RunInput,
): Promise<number> {
  let session: SessionHandle | undefined;
  const signals = watchSignals(() => session?.send({ type: "cancel" }));
  try {
    const streamed = args.inputFormat === "stream-json";
    const prompt = streamed ? "" : (args.prompt ?? (await stdinPrompt(input.stdin)));
    session = await openSession(engine, args, projectRoot, input.dialect);
    await input.opened(session);
    if (signals.received) return cancelledEarly(output, session.id);
    if (streamed)
      return turnEnd(
        output,
        session.id,
        await runStreamInput(session, input.stdin, input.warn),
        signals.received,
      );
    const slash = parseSlashPrompt(prompt);
    if (slash) {
      const ran = await session.command(slash.name, slash.args);
      if (ran.type !== "turn")
        return commandEnd(output, session.id, ran.type === "output" ? undefined : ran.message);
      return turnEnd(output, session.id, ran.summary, signals.received);
    }
    const schema = input.dialect.schema;
    if (schema) {
      const run = await runStructured(session, prompt, schema);
      const extra =
        run.output !== undefined
          ? { structuredOutput: run.output }
          : run.error
            ? { structuredError: run.error }
            : {};
      return turnEnd(output, session.id, run.summary, signals.received, extra);
    }
    return turnEnd(output, session.id, await session.run(prompt), signals.received);
  } finally {
    await engine.shutdown();
    signals.dispose();
  }
}

/**
 * A command that ran without a turn: an engine built-in (its markdown was printed from its
 * `commandOutput` event) exits 0; an unknown command or one that could not run (its notice
 * was printed) is bad usage, exit 2. Neither asked the model anything.
 */
function commandEnd(
  output: OutputFormatter,
  sessionId: string,
  problem: string | undefined,
): number {
  output.finish({
    outcome: problem === undefined ? "completed" : "failed",
    ...(problem === undefined ? {} : { reason: problem }),
    usage: emptyUsage(),
    badge: { status: "notApplicable", reason: "no turn ran", checks: [] },
    durationMs: 0,
    sessionId,
  });
  return problem === undefined ? EXIT.ok : EXIT.usage;
}

function turnEnd(
  output: OutputFormatter,
  sessionId: string,
  summary: TurnSummary,
  cancelled: boolean,
  structured: Pick<RunEnd, "structuredOutput" | "structuredError"> = {},
): number {
  output.finish({
    ...structured,
    outcome: summary.outcome,
    ...(summary.reason === undefined ? {} : { reason: summary.reason }),
    usage: summary.usage,
    badge: summary.badge,
    durationMs: summary.durationMs,
    sessionId,
  });
  if (cancelled) return EXIT.cancelled;
  return structured.structuredError ? EXIT.failed : exitCodeFor(summary.outcome);
}

/** What the loader of this module hooks into a run. */
export interface HeadlessHooks {
  /** Called once, just before V8's flags change (see memory-tuning.ts). */
  readonly beforeFlags?: () => void;
  /** True when this run writes no code cache (used one, or has none): see memory-tuning.ts. */
  readonly cacheSettled?: boolean;
  /** Where a prompt from stdin is read (default `process.stdin`). */
  readonly stdin?: Stdin;
}

const CLAUDE_MODES: Readonly<Record<string, string>> = {
  ask: "default",
  bypass: "bypassPermissions",
};

/** The init line's facts of an open session: its MCP servers and `/` commands. */
function sessionFacts(known: { session?: SessionHandle; commands?: string[] }) {
  if (!known.session) return {};
  const mcpServers = known.session.mcp.servers().map((s) => ({ name: s.name, status: s.state }));
  return { mcpServers, ...(known.commands ? { slashCommands: known.commands } : {}) };
}

/** The permission mode as Claude Code names it (`default` when the settings decide). */
function claudeMode(args: HeadlessArgs): string {
  return args.mode ? (CLAUDE_MODES[args.mode] ?? args.mode) : "default";
}

/**
 * `zeng -p`: runs one prompt in a headless session (asks are denied, design.md §3) and
 * writes the chosen output format. Resolves with the exit code; bad usage and setup
 * failures are one line on stderr. Never rejects for an expected failure.
 */
export async function runHeadless(
  args: HeadlessArgs,
  io: Io,
  env: Env,
  hooks: HeadlessHooks = {},
): Promise<number> {
  guardConsole(io.stderr);
  try {
    const projectRoot = await projectFolder(args.cwd ?? process.cwd());
    const dialect = await dialectSetup(args, projectRoot);
    const warn = (message: string) => io.stderr(`zeng: warning: ${message}\n`);
    for (const problem of dialect.problems) warn(problem);
    const known: { session?: SessionHandle; commands?: string[]; showThinking?: boolean } = {};
    const output = outputFor(
      args.outputFormat,
      io,
      {
        partial: args.includePartialMessages === true,
        facts: { cwd: projectRoot, model: args.model ?? "", permissionMode: claudeMode(args) },
        session: () => sessionFacts(known),
      },
      { showThinking: () => known.showThinking !== false },
    );
    const opened = async (session: SessionHandle) => {
      known.session = session;
      if (args.outputFormat === "text") known.showThinking = showsThinking(session);
      if (args.outputFormat === "claude-stream-json")
        known.commands = (await session.commands()).map((c) => c.name);
    };
    const step = favourMemory(hooks);
    const paths = resolvePaths(env);
    const telemetry = await startHostTelemetry(env, paths.dataDir, args.debug === true);
    const engine = await createEngine({
      paths,
      env,
      ...(telemetry.logger ? { logger: telemetry.logger } : {}),
      onEvent: (envelope) => {
        if (envelope.event.type === "assistantStarted") step("requestStarted");
        if (envelope.event.type === "assistantFinished") step("answerFinished");
        output.onEvent(envelope);
      },
      // The catalog refreshes from the `[catalog] source` of the session's own settings, so
      // the settings are loaded once (by the engine).
      catalogSource: "settings",
      headless: true,
      ...(dialect.settings ? { settings: dialect.settings } : {}),
    });
    try {
      return await runTurn(engine, args, projectRoot, output, {
        dialect,
        stdin: hooks.stdin ?? process.stdin,
        warn,
        opened,
      });
    } finally {
      // After the engine's shutdown (runTurn's): the session's spans have ended.
      await telemetry.flush();
    }
  } catch (error) {
    if (error instanceof DialectError) {
      io.stderr(`zeng: ${error.message}\n`);
      return EXIT.usage;
    }
    if (error instanceof SetupError) {
      io.stderr(`zeng: ${error.message}\n`);
      return error.exitCode;
    }
    io.stderr(`zeng: ${(error as Error).message}\n`);
    return EXIT.failed;
  }
}
