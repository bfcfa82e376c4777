import { type LoadedSettings, mcpServerSources } from "@z-engine/config";
import { type ChildEnvironment, type ChildFolder, neutralFolder } from "@z-engine/host";
import { type EnvSettings, sessionChildEnv } from "./program-env.js";

/** Where a program the user configured (an MCP server, a hook) runs for a project, and with what. */
export interface ChildLaunch {
  readonly folder: ChildFolder;
  readonly env: ChildEnvironment;
}

/**
 * How the user's own programs (user-level MCP servers and hooks) start for `projectRoot`:
 * in the project once it is trusted (as Claude Code runs them); before, in the engine's empty
 * neutral folder (`<dataDir>/neutral`), with PATH-like lists stripped of relative entries and
 * of folders inside the project, so `npx server`, `python -m pkg` or a relative PATH entry
 * never reaches a program the untrusted project planted. Both start from the session's
 * program environment ({@link sessionChildEnv}: the scrubbed `childEnv` with `settings.env`
 * over it). Never throws.
 */
export function childLaunch(
  ctx: {
    readonly childEnv: Readonly<Record<string, string>>;
    readonly paths: { readonly dataDir: string };
  },
  projectRoot: string,
  trusted: boolean,
  settings: EnvSettings,
): ChildLaunch {
  if (trusted)
    return {
      folder: { path: projectRoot, reason: "trustedProject" },
      env: sessionChildEnv(ctx.childEnv, settings),
    };
  return {
    folder: neutralFolder(ctx.paths.dataDir, [projectRoot]),
    env: sessionChildEnv(ctx.childEnv, settings, [projectRoot]),
  };
}

/**
 * The context the MCP hub builds its entries with: where each server came from (a project's
 * entries never get a provider key through `${VAR}`) and where stdio servers start
 * ({@link childLaunch}, with the loaded settings' `[env]`). Never throws.
 */
export function mcpContext(
  ctx: Parameters<typeof childLaunch>[0],
  projectRoot: string,
  loaded: Pick<LoadedSettings, "layers" | "trusted" | "settings">,
) {
  return {
    sources: mcpServerSources(loaded.layers),
    launch: childLaunch(ctx, projectRoot, loaded.trusted, loaded.settings),
  };
}
