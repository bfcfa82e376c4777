import { mkdir, mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A temporary folder (by its real path) with a user's home and a project folder in it. */
export interface ScratchHome {
  readonly scratch: string;
  /** `<scratch>/home`, holding `.config/git/`. */
  readonly home: string;
  /** `<scratch>/project`, empty. */
  readonly project: string;
  /** PATH and that HOME only: git reads no config of the machine's user. */
  readonly env: Record<string, string>;
  dispose(): Promise<void>;
}

/** Makes a {@link ScratchHome} under the system's temporary folder. */
export async function scratchHome(prefix: string): Promise<ScratchHome> {
  const scratch = await realpath(await mkdtemp(join(tmpdir(), prefix)));
  const home = join(scratch, "home");
  const project = join(scratch, "project");
  await mkdir(join(home, ".config", "git"), { recursive: true });
  await mkdir(project);
  return {
    scratch,
    home,
    project,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home },
    dispose: () => rm(scratch, { recursive: true, force: true }),
  };
}
