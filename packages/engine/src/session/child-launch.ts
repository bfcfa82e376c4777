import { type LoadedSettings, mcpServerSources } from "@z-engine/config";
import {
  type ChildEnvironment,
  type ChildFolder,
  childEnvironment,
  neutralFolder,
} from "@z-engine/host";

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
 * never reaches a program the untrusted project planted. Both start from the scrubbed
 * environment (`childEnv`). Never throws.
 */
export function childLaunch(
  ctx: {
    readonly childEnv: Readonly<Record<string, string>>;
    readonly paths: { readonly dataDir: string };
  },
  projectRoot: string,
  trusted: boolean,
): ChildLaunch {
  if (trusted)
    return {
      folder: { path: projectRoot, reason: "trustedProject" },
      env: childEnvironment(ctx.childEnv),
    };
  return {
    folder: neutralFolder(ctx.paths.dataDir, [projectRoot]),
    env: childEnvironment(ctx.childEnv, { exclude: [projectRoot] }),
  };
}

/**
 * The context the MCP hub builds its entries with: where each server came from (a project's
 * entries never get a provider key through `${VAR}`) and where stdio servers start
 * ({@link childLaunch}). Never throws.
 */
export function mcpContext(
  ctx: Parameters<typeof childLaunch>[0],
  projectRoot: string,
  loaded: Pick<LoadedSettings, "layers" | "trusted">,
) {
  return {
    sources: mcpServerSources(loaded.layers),
    launch: childLaunch(ctx, projectRoot, loaded.trusted),
  };
}
