import { type LoadedSettings, projectServerVariables } from "@z-engine/config";
import { isProviderKeyVariable } from "../util/secrets.js";
import type { McpHub } from "../mcp/hub.js";
import { replacedMcpServers, replacedServersText } from "../mcp/replaced.js";
import type { SessionRepoMap } from "../repo-map/session-map.js";
import type { SessionOverrides } from "../settings/session-config.js";
import type { Journal } from "../journal/journal.js";
import type { OpenContext } from "./open-context.js";
import { reloadSessionSettings } from "./reload-settings.js";
import { loadProjectSettings } from "./services.js";
import type { SessionState } from "../core/state.js";

/** What trusting the workspace changes: the session's settings, its repo map and MCP servers. */
export interface TrustTarget {
  readonly id: string;
  readonly projectRoot: string;
  /** The log's path (hooks get it as `transcript_path`). */
  readonly logPath: string;
  readonly journal: Journal;
  readonly state: SessionState;
  readonly repoMap?: SessionRepoMap;
  readonly mcp: Pick<McpHub, "reconcile">;
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
export async function trustWorkspace(
  ctx: OpenContext,
  session: TrustTarget,
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
  const before = loadProjectSettings(ctx, root, overrides);
  const withheld = [...before.withheld];
  const replaced = replacedServersText(replacedMcpServers(before.layers));
  await ctx.trustStore.trust(root);
  const { previous, config } = await reloadSessionSettings(ctx, session, overrides);
  await session.journal.record("trust", { projectRoot: root, withheld, decision: "trusted" });
  // Only a mode the settings now give differently moves the session's mode: a mode the user
  // chose during the session stays unless the project's own mode was what trust withheld.
  if (config.mode !== previous.mode && session.state.mode !== config.mode)
    await session.state.setMode(config.mode);
  await session.journal.notice(
    "info",
    "trust.trusted",
    withheld.length > 0
      ? `${root} is trusted; its project settings now apply (${withheld.join(", ")}).`
      : `${root} is trusted; its project settings now apply.`,
  );
  if (replaced) await session.journal.notice("warning", "trust.mcpReplaced", replaced);
}

/**
 * The trust report's line about the project's MCP servers: each server the project defines
 * and the environment variables its `${VAR}` references would hand it once trusted (a model
 * provider's key is marked "left empty": it is never expanded there). Undefined when no
 * project server names a variable. Pure.
 */
export function mcpVariablesReport(
  root: string,
  loaded: Pick<LoadedSettings, "layers">,
): string | undefined {
  const servers = projectServerVariables(loaded.layers);
  if (servers.length === 0) return undefined;
  const parts = servers.map(({ server, file, variables }) => {
    const names = variables.map((v) =>
      isProviderKeyVariable(v) ? `\${${v}} (left empty)` : `\${${v}}`,
    );
    return `${server} (${file}): ${names.join(", ")}`;
  });
  return `Trusting ${root} hands its MCP servers these environment variables: ${parts.join("; ")}.`;
}
