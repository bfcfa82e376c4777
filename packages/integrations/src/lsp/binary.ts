import { constants } from "node:fs";
import { access, stat } from "node:fs/promises";
import { delimiter, isAbsolute, join, resolve } from "node:path";

async function isExecutable(path: string): Promise<boolean> {
  try {
    const info = await stat(path);
    if (!info.isFile()) return false;
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Finds a server's program: a command with a slash is taken as a path (relative to the
 * project); a bare name is looked up in the project's `node_modules/.bin`, then in each
 * folder of `PATH`. Resolves to the absolute path, or `null` when it is not installed.
 * Never rejects.
 */
export async function findServerBinary(
  command: string,
  projectRoot: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<string | null> {
  if (command.includes("/")) {
    const path = isAbsolute(command) ? command : resolve(projectRoot, command);
    return (await isExecutable(path)) ? path : null;
  }
  const folders = [
    join(projectRoot, "node_modules", ".bin"),
    ...(env.PATH ?? "").split(delimiter).filter((d) => d !== ""),
  ];
  for (const folder of folders) {
    const candidate = join(folder, command);
    if (await isExecutable(candidate)) return candidate;
  }
  return null;
}
