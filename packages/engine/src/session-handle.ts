import type { EventEnvelope, TurnId } from "@z-engine/protocol";
import { commandInfo } from "./commands/catalog.js";
import { sessionCatalog } from "./commands/run.js";
import { sessionMcp } from "./mcp/prompts.js";
import type { EngineOptions } from "./settings/engine-options.js";
import { registerHandle } from "./queries/registry.js";
import { OFF_MAP } from "./repo-map/map-status.js";
import type { SessionOptions } from "./session-options.js";
import { EventFeed } from "./session/event-feed.js";
import type { SessionHandle } from "./session/handle.js";
import type { OpenContext } from "./session/open-context.js";
import type { EngineSession } from "./session/session.js";
import { layerSettings } from "./settings/session-layer.js";
import type { SessionOverrides } from "./settings/session-config.js";
import type { TelemetryHub } from "./telemetry/hub.js";

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
