import type { LoadedSettings } from "@z-engine/config";
import { HookRunner } from "../hooks/runner.js";
import {
  type SessionConfig,
  type SessionOverrides,
  sessionConfig,
} from "../settings/session-config.js";
import { childLaunch, mcpContext } from "../launch/child-launch.js";
import type { OpenContext } from "./open-context.js";
import type { McpHub } from "../mcp/hub.js";
import type { SessionRepoMap } from "../repo-map/session-map.js";
import { loadProjectSettings, projectChecks } from "./services.js";
import type { SessionState } from "../core/state.js";

/** What a reload of the settings changes: the session's state, its repo map and MCP servers. */
export interface ReloadTarget {
  readonly id: string;
  readonly projectRoot: string;
  /** The log's path (hooks get it as `transcript_path`). */
  readonly logPath: string;
  readonly state: SessionState;
  readonly repoMap?: SessionRepoMap;
  readonly mcp: Pick<McpHub, "reconcile">;
}

/**
 * Loads the session's settings again (after trust, or an edit of the project's settings
 * through a host) and puts them in place: hooks, checks, rules, additional directories, the
 * repo map's size and MCP servers (only new or changed entries start). Resolves with the
 * settings before and after. Never rejects for bad files (they are skipped, as at open).
 * `options.loaded`: settings the caller already loaded (the live reload validated them);
 * `options.rebuildMap: false` keeps the repo map (its size did not change, and a rebuild
 * would change the cached prefix).
 */
export async function reloadSessionSettings(
  ctx: OpenContext,
  session: ReloadTarget,
  overrides: SessionOverrides,
  options: { readonly loaded?: LoadedSettings; readonly rebuildMap?: boolean } = {},
): Promise<{ previous: SessionConfig; config: SessionConfig }> {
  const root = session.projectRoot;
  const previous = session.state.settings.config;
  const loaded = options.loaded ?? loadProjectSettings(ctx, root, overrides);
  const config = sessionConfig(loaded, overrides);
  session.state.replaceSettings({
    config,
    trusted: loaded.trusted,
    additionalDirectories: config.settings.permissions.additional_directories,
    hooks: new HookRunner(config.hooks, {
      sessionId: session.id,
      transcriptPath: session.logPath,
      cwd: root,
      ...childLaunch(ctx, root, loaded.trusted, config.settings),
      ...(ctx.hookSpans ? { spans: ctx.hookSpans } : {}),
    }),
    checks: await projectChecks({ projectRoot: root, homeDir: ctx.homeDir }, config),
  });
  // A reload is a rebuild point for the repo map (its size may have changed).
  if (options.rebuildMap !== false) session.repoMap?.rebuild();
  session.mcp.reconcile(config.settings.mcp.servers, mcpContext(ctx, root, loaded));
  return { previous, config };
}
