import type { EventEnvelope, EngineCommand, SessionId, TurnId } from "@z-engine/protocol";
import { commandInfo, type SlashCommandInfo } from "./commands/catalog.js";
import type { CommandResult } from "./commands/result.js";
import { sessionCatalog } from "./commands/run.js";
import { type SessionMcp, sessionMcp } from "./mcp/prompts.js";
import type { EngineOptions } from "./settings/engine-options.js";
import { registerHandle } from "./queries/registry.js";
import { OFF_MAP, type RepoMapStatus } from "./repo-map/map-status.js";
import type { TurnSummary } from "./run/turn.js";
import type { SessionOptions } from "./session-options.js";
import { EventFeed } from "./session/event-feed.js";
import type { OpenContext } from "./session/open-context.js";
import type { EngineSession } from "./session/session.js";
import { layerSettings } from "./settings/session-layer.js";
import type { SessionOverrides } from "./settings/session-config.js";
import type { TelemetryHub } from "./telemetry/hub.js";

export interface SessionHandle {
  readonly id: SessionId;
  /** The real path of the project folder. */
  readonly projectRoot: string;
  /** The session's log.jsonl (hooks get it as `transcript_path`). */
  readonly logPath: string;
  /**
   * Sends a command; it is handled in order. An invalid command is answered with a notice.
   * Never throws. For a submit, returns the id of the turn it starts (its `turnId`, else a new one).
   */
  send(command: EngineCommand): TurnId | undefined;
  /** Resolves with the summary of the next turn that ends (whichever it is). */
  nextTurnEnd(): Promise<TurnSummary>;
  /** Resolves with the summary of the turn of this id once it ends (register before it can end). */
  turnEnd(turnId: TurnId): Promise<TurnSummary>;
  /** Submits a prompt and resolves with the summary of the turn it started, even with concurrent callers. */
  run(prompt: string): Promise<TurnSummary>;
  /**
   * The session's events from now on, in order, until it closes (the loop then ends).
   * Each call is its own subscription; leaving the loop unsubscribes.
   */
  events(): AsyncIterable<EventEnvelope>;
  /** Resolves once no command is pending and no turn runs. */
  idle(): Promise<void>;
  /** Where the repo map stands and its size in the prompt (for `/context`). Never throws. */
  repoMap(): RepoMapStatus;
  /** Resolves when no repo map build is running, with its status then. Never rejects. */
  repoMapIdle(): Promise<RepoMapStatus>;
  /** Stops the running turn, kills the session's jobs, runs SessionEnd hooks and closes the log. */
  close(): Promise<void>;
  /** The session's MCP servers: states, a wait for starts, and prompts as slash commands. */
  readonly mcp: SessionMcp;
  /**
   * The `/` commands a UI offers for completion, in precedence order (engine built-ins,
   * custom commands, prompt built-ins, MCP prompts of ready servers), each name once, with
   * description and argument hint. Custom files are read on each call. Never rejects.
   */
  commands(): Promise<SlashCommandInfo[]>;
  /**
   * Runs `/name args` in the command order (like `runCommand`) and resolves with what it did:
   * an engine built-in's `output` (markdown, also emitted as `commandOutput`), a `notice`
   * (unknown name, a prompt that cannot run), or for a prompt command the `turn`'s summary
   * once it ended. Rejects only when the session's log cannot be written.
   */
  command(name: string, args?: string): Promise<CommandResult>;
}

/**
 * Opens a session with `how` and wraps it in its handle: its events go to the host's
 * listeners, the telemetry and `options.onEvent`; the handle is registered for the queries
 * and `sessions` holds the session until it closes.
 */
export async function openHandle(
  how: (ctx: OpenContext) => Promise<EngineSession>,
  o: SessionOptions,
  engine: {
    readonly ctx: Omit<OpenContext, "sink">;
    readonly options: EngineOptions;
    readonly telemetries: TelemetryHub;
    readonly sessions: Map<string, EngineSession>;
  },
): Promise<SessionHandle> {
  const { ctx, options, telemetries, sessions } = engine;
  const feed = new EventFeed();
  if (o.onEvent) feed.listen(o.onEvent);
  const telemetry = telemetries.session();
  const sink = (envelope: EventEnvelope) => {
    telemetry.observe(envelope);
    options.onEvent?.(envelope);
    feed.publish(envelope);
  };
  const sessionCtx = {
    ...ctx,
    sink,
    hookSpans: telemetry.hooks,
    hostSettings: layerSettings(ctx.hostSettings, o.settings),
    ...(o.shell ? { sessionShell: o.shell } : {}),
    ...(o.editor ? { editor: o.editor } : {}),
  };
  const session = await how(sessionCtx);
  sessions.set(session.id, session);
  const handle = handleOf(session, feed, () => {
    sessions.delete(session.id);
    telemetry.close();
  });
  // The queries (queries/) reach the session behind the handle (the web UI's screens).
  registerHandle(handle, { session, ctx: sessionCtx, overrides: overridesOf(o) });
  return handle;
}

function handleOf(session: EngineSession, feed: EventFeed, forget: () => void): SessionHandle {
  return {
    id: session.id,
    projectRoot: session.projectRoot,
    logPath: session.logPath,
    send: (command) => session.send(command),
    nextTurnEnd: () => session.nextTurnEnd(),
    turnEnd: (turnId) => session.turnEnd(turnId),
    run: (prompt) => {
      const turnId = session.send({ type: "submit", text: prompt }) as TurnId;
      return session.turnEnd(turnId);
    },
    events: () => feed.events(),
    idle: () => session.idle(),
    repoMap: () => session.repoMap?.status() ?? OFF_MAP,
    repoMapIdle: async () => (await session.repoMap?.whenIdle()) ?? OFF_MAP,
    mcp: sessionMcp(session.mcp),
    commands: async () => (await sessionCatalog(session)).entries.map(commandInfo),
    command: (name, args = "") => session.command(name, args),
    close: async () => {
      await session.close();
      feed.close();
      forget();
    },
  };
}

/** A session's overrides: its options without what only the handle uses. */
export function overridesOf(options: SessionOptions): SessionOverrides {
  const { onEvent: _, editor: _e, shell: _s, settings: _t, sessionId: _i, ...overrides } = options;
  return overrides;
}
