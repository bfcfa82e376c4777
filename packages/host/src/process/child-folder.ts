import { lstatSync, mkdirSync } from "node:fs";
import { isAbsolute, relative, resolve } from "node:path";
import { HostError } from "../errors.js";

/**
 * Why a child process may start in a folder. Every spawn names one, so a reader (and the
 * check `checks/spawn-door.test.ts`) sees where project-controlled files can reach a child:
 * - `neutral`: an empty folder of the engine's ({@link neutralFolder}); nothing the project
 *   controls is found from there (npx, `python -m`, relative PATH entries).
 * - `trustedProject`: the project, which the user trusted (its servers, hooks, checks).
 * - `approvedCommand`: a command the permission gate let run (the user, a rule or the mode
 *   allowed it), in the folder it names.
 * - `sandboxed`: inside the sandbox, which confines what the program does.
 * - `engine`: a folder of the engine's own (its data or temporary folders).
 * - `userChosen`: a program the user started from the command line (a browser for a URL).
 */
export type ChildFolderReason =
  | "neutral"
  | "trustedProject"
  | "approvedCommand"
  | "sandboxed"
  | "engine"
  | "userChosen";

/** Where a child starts, and why it may start there. */
export interface ChildFolder {
  /** An absolute path. */
  readonly path: string;
  readonly reason: ChildFolderReason;
}

const neutral = new Set<string>();

function inside(path: string, folder: string): boolean {
  const rel = relative(folder, path);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

/**
 * An empty folder, private to the user (0700), for children that must not see the project:
 * `<parent>/neutral` (the engine passes its data folder), made when missing. When that
 * folder would be inside one of `avoid` (the project is the home folder, say), or cannot be
 * made, it is `/` (only root can plant files there). Never throws.
 */
export function neutralFolder(parent: string, avoid: readonly string[] = []): ChildFolder {
  let path = resolve(parent, "neutral");
  if (avoid.some((folder) => inside(path, resolve(folder)))) path = "/";
  else {
    try {
      mkdirSync(path, { recursive: true, mode: 0o700 });
      if (!lstatSync(path).isDirectory()) path = "/";
    } catch {
      path = "/";
    }
  }
  neutral.add(path);
  return { path, reason: "neutral" };
}

/**
 * Checks a folder a child is about to start in: it must be absolute, and a `neutral` one
 * must come from {@link neutralFolder}. Throws a `HostError` (`spawnRefused`) otherwise.
 */
export function checkChildFolder(folder: ChildFolder): void {
  if (!isAbsolute(folder.path))
    throw new HostError("spawnRefused", `a child's folder must be absolute: ${folder.path}`);
  if (folder.reason === "neutral" && !neutral.has(folder.path))
    throw new HostError(
      "spawnRefused",
      `${folder.path} is not a neutral folder of the engine (use neutralFolder())`,
    );
}
