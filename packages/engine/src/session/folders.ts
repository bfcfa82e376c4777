import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Env, type Paths, resolvePaths } from "@z-engine/config";

/**
 * The engine's config and data folders: the given `paths`, the user's (as the CLI uses
 * them), or temporary ones with `ephemeral` (`temporary` is then the folder to remove).
 */
export async function foldersOf(
  options: { readonly paths?: Paths; readonly ephemeral?: boolean },
  env: Env,
): Promise<{ paths: Paths; temporary: string | undefined }> {
  if (options.paths) return { paths: options.paths, temporary: undefined };
  if (!options.ephemeral) return { paths: resolvePaths(env), temporary: undefined };
  const temporary = await mkdtemp(join(tmpdir(), "zeng-ephemeral-"));
  const paths: Paths = resolvePaths({
    ...env,
    ZENGINE_CONFIG_HOME: join(temporary, "config"),
    ZENGINE_HOME: join(temporary, "data"),
  });
  return { paths, temporary };
}
