import { realpath } from "node:fs/promises";
import { sep } from "node:path";

/**
 * The real path of a job's project folder, when it lies inside one of the worker's
 * workspace roots (symlinks resolved on both sides, so a link cannot lead out); else a
 * string saying why not. A queue's jobs are input: a worker never opens a folder it was not
 * given. Never throws.
 */
export async function workspaceFolder(
  projectRoot: string,
  roots: readonly string[],
): Promise<{ path: string } | string> {
  let path: string;
  try {
    path = await realpath(projectRoot);
  } catch {
    return `the project folder ${projectRoot} does not exist on this worker`;
  }
  for (const root of roots) {
    const real = await realpath(root).catch(() => undefined);
    if (
      real !== undefined &&
      (path === real || path.startsWith(real.endsWith(sep) ? real : real + sep))
    )
      return { path };
  }
  return `the project folder ${projectRoot} is outside this worker's workspace roots`;
}
