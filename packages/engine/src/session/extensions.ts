import { HookRunner } from "../hooks/runner.js";
import type { SessionLsp } from "../lsp/hub.js";
import type { SessionInteraction } from "../ports/interaction.js";
import type { SessionJobs } from "../ports/jobs.js";
import { type SessionOverrides, sessionConfig } from "../settings/session-config.js";
import { TurnCheckpoints } from "./checkpoint.js";
import type { OpenContext } from "./open-context.js";
import { loadProjectSettings, projectChecks } from "./services.js";
import { rewindSession } from "./rewind.js";
import type { EngineSession, SessionExtensions } from "./session.js";
import { runHook } from "../hooks/run-hook.js";

/** The session operations that need the engine's context: rewind, trust, checkpoints, close. */
export function sessionExtensions(
  ctx: OpenContext,
  parts: {
    interaction: SessionInteraction;
    jobs: SessionJobs;
    lsp: SessionLsp;
    overrides: SessionOverrides;
  },
): SessionExtensions {
  const checkpoints = new TurnCheckpoints();
  return {
    rewind: (session, command) => rewindSession(session, command.messageId, command.restore),
    trust: (session, trusted) => trust(ctx, session, trusted, parts.overrides),
    resolveQuestion: (c) => parts.interaction.questions.resolve(c.questionId, c.answers),
    resolvePlan: (c) =>
      parts.interaction.plans.resolve(c.planId, {
        approved: c.approved,
        dismissed: false,
        ...(c.feedback ? { feedback: c.feedback } : {}),
        ...(c.mode ? { mode: c.mode } : {}),
      }),
    killJob: async (id) =>
      (await parts.jobs.kill(id as Parameters<SessionJobs["kill"]>[0])) !== null,
    beginCheckpoint: (session, turn) => checkpoints.begin(session, turn),
    close: async (session) => {
      await runHook(session, "SessionEnd", { reason: "exit" });
      await session.repoMap?.close();
      await Promise.all([
        parts.jobs.killAll(),
        parts.lsp.close(),
        session.mcp.close(),
        checkpoints.settled(),
      ]);
      await session.log.close();
    },
  };
}

/**
 * trustWorkspace: `true` records the folder in trust.json and reloads the session's
 * settings, so the project's withheld settings apply from now on (hooks, checks, rules,
 * mode, additional directories, MCP servers: only new or changed entries start; a changed
 * [shell] section applies from the next session);
 * the session's mode moves only when the settings' mode changed with trust, so a mode the
 * user chose stays. `false` only dismisses the request. Rejects only when the log or
 * trust.json cannot be written.
 */
async function trust(
  ctx: OpenContext,
  session: EngineSession,
  trusted: boolean,
  overrides: SessionOverrides,
): Promise<void> {
  const root = session.projectRoot;
  if (!trusted) {
    await session.journal.record("trust", {
      projectRoot: root,
      withheld: [],
      decision: "dismissed",
    });
    return;
  }
  const previous = session.config;
  const withheld = [...loadProjectSettings(ctx, root, overrides).withheld];
  await ctx.trustStore.trust(root);
  const loaded = loadProjectSettings(ctx, root, overrides);
  const config = sessionConfig(loaded, overrides);
  session.config = config;
  session.trusted = loaded.trusted;
  session.additionalDirectories = config.settings.permissions.additional_directories;
  session.hooks = new HookRunner(config.hooks, {
    sessionId: session.id,
    transcriptPath: session.logPath,
    cwd: root,
    env: { ...ctx.childEnv },
  });
  session.checkList = await projectChecks(root, config);
  // A reload is a rebuild point for the repo map (its size may have changed with trust).
  session.repoMap?.rebuild();
  session.mcp.reconcile(config.settings.mcp.servers);
  await session.journal.record("trust", { projectRoot: root, withheld, decision: "trusted" });
  // Only a mode the settings now give differently moves the session's mode: a mode the user
  // chose during the session stays unless the project's own mode was what trust withheld.
  if (config.mode !== previous.mode && session.mode !== config.mode)
    await session.setMode(config.mode);
  await session.journal.notice(
    "info",
    "trust.trusted",
    withheld.length > 0
      ? `${root} is trusted; its project settings now apply (${withheld.join(", ")}).`
      : `${root} is trusted; its project settings now apply.`,
  );
}
