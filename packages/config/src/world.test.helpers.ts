import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { type Env, type Paths, resolvePaths } from "./paths.js";

/** A temporary home with config and data folders and one project folder. */
export interface World {
  readonly base: string;
  readonly env: Env;
  readonly paths: Paths;
  readonly project: string;
  /** Writes a file (creating folders); relative paths are under `base`. */
  write(path: string, content: string): Promise<string>;
  dispose(): Promise<void>;
}

/** Creates a World; the environment points every folder inside it, never at the real home. */
export async function createWorld(extraEnv: Env = {}): Promise<World> {
  const base = await realpath(await mkdtemp(join(tmpdir(), "zeng-config-")));
  const project = join(base, "project");
  await mkdir(project, { recursive: true });
  const env: Env = {
    HOME: join(base, "home"),
    ZENGINE_CONFIG_HOME: join(base, "config"),
    ZENGINE_HOME: join(base, "data"),
    ...extraEnv,
  };
  const write = async (path: string, content: string) => {
    const full = path.startsWith("/") ? path : join(base, path);
    await mkdir(dirname(full), { recursive: true });
    await writeFile(full, content);
    return full;
  };
  return {
    base,
    env,
    paths: resolvePaths(env),
    project,
    write,
    dispose: () => rm(base, { recursive: true, force: true }),
  };
}
