import { constants, type Stats } from "node:fs";
import { lstat, mkdir, open, readlink, realpath, rename, symlink, unlink } from "node:fs/promises";
import { basename, dirname, join, relative as relativePath, resolve } from "node:path";
import { HostError } from "../errors.js";

/**
 * Reading and replacing files of the user's project for an agent's changes, never through a
 * link the engine did not make (issue 38, item 3): a project may commit `notes.txt ->
 * ~/.bashrc`, or a folder link leading out. A path is refused when a folder on its way is a
 * symbolic link or no folder, when it is a folder, a FIFO or a device, and when it is a link
 * whose real location leaves the project. Files are replaced by a new file renamed over them
 * (created `O_EXCL | O_NOFOLLOW` beside them), so neither a link nor a hard link is written
 * through. A concurrent process that swaps a folder for a link between the check and the
 * write is not excluded (Node has no `openat`); the check runs again right before each write.
 */

/** What is at a project path the engine may read or replace. */
export type ProjectTarget =
  | { readonly kind: "absent" }
  | { readonly kind: "file"; readonly mode: number }
  /** A symbolic link whose real location stays in the project; `text` is what it names. */
  | { readonly kind: "link"; readonly text: string };

/** A checked path, or why the engine will not touch it. */
export type CheckedPath =
  | { readonly ok: true; readonly target: ProjectTarget }
  | { readonly ok: false; readonly reason: string };

const refuse = (reason: string): CheckedPath => ({ ok: false, reason });

const inside = (top: string, path: string) => {
  const rel = relativePath(top, path);
  return rel === "" || (!rel.startsWith("..") && !rel.startsWith("/"));
};

async function lstatOrNull(path: string): Promise<Stats | null> {
  return lstat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return null;
    throw error;
  });
}

/** What a link at `path` is, when its real location stays inside `top`. */
async function linkTarget(top: string, path: string, shown: string): Promise<CheckedPath> {
  const text = await readlink(path);
  const real = await realpath(path).catch(() => null);
  if (real === null)
    return refuse(`${shown} is a symbolic link to ${text}, which does not resolve`);
  if (!inside(top, real))
    return refuse(`${shown} is a symbolic link to ${real}, outside the project`);
  return { ok: true, target: { kind: "link", text } };
}

/**
 * Checks `relative` (`/`-separated) under `top` (a real path, no link in it). Never follows
 * a link; rejects only on an unexpected file-system error.
 */
export async function checkProjectPath(top: string, relative: string): Promise<CheckedPath> {
  const parts = relative.split("/");
  if (parts.some((p) => p === "" || p === "." || p === ".." || p.toLowerCase() === ".git"))
    return refuse(`${relative} is not a plain path inside the project`);
  for (let i = 1; i < parts.length; i++) {
    const folder = parts.slice(0, i).join("/");
    const entry = await lstatOrNull(join(top, folder));
    if (entry === null) return { ok: true, target: { kind: "absent" } };
    if (entry.isSymbolicLink())
      return refuse(`${folder} is a symbolic link the engine did not create`);
    if (!entry.isDirectory()) return refuse(`${folder} is not a folder`);
  }
  const path = join(top, relative);
  const entry = await lstatOrNull(path);
  if (entry === null) return { ok: true, target: { kind: "absent" } };
  if (entry.isFile()) return { ok: true, target: { kind: "file", mode: entry.mode } };
  if (entry.isSymbolicLink()) return linkTarget(top, path, relative);
  if (entry.isDirectory()) return refuse(`${relative} is a folder`);
  return refuse(`${relative} is not a regular file`);
}

/** Why a link the agent made may not be written into the project (it leads out), or null. */
export function linkRefusal(top: string, relative: string, text: string): string | null {
  const points = resolve(dirname(join(top, relative)), text);
  return inside(top, points)
    ? null
    : `${relative} would be a symbolic link to ${points}, outside the project`;
}

/** A checked path's current content: a file's bytes, a link's text, null when absent. */
export async function readProjectPath(
  top: string,
  relative: string,
  target: ProjectTarget,
): Promise<Buffer | null> {
  if (target.kind === "absent") return null;
  if (target.kind === "link") return Buffer.from(target.text);
  const handle = await open(join(top, relative), constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    if (!(await handle.stat()).isFile()) throw new Error(`${relative} is not a regular file`);
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/** Checks again, right before a write; throws `worktreeFailed` with the reason when refused. */
async function recheck(top: string, relative: string): Promise<ProjectTarget> {
  const checked = await checkProjectPath(top, relative);
  if (!checked.ok) throw new HostError("worktreeFailed", `refused ${relative}: ${checked.reason}`);
  return checked.target;
}

/** Creates the missing folders of `relative`'s way, one at a time, each a new real folder. */
async function makeFolders(top: string, relative: string): Promise<void> {
  const parts = relative.split("/");
  for (let i = 1; i < parts.length; i++) {
    const folder = join(top, ...parts.slice(0, i));
    await mkdir(folder).catch(async (error: NodeJS.ErrnoException) => {
      if (error.code !== "EEXIST") throw error;
      const entry = await lstat(folder);
      if (!entry.isDirectory() || entry.isSymbolicLink())
        throw new HostError("worktreeFailed", `refused ${relative}: a folder on its way changed`);
    });
  }
}

let scratchNames = 0;

/** A new name beside `path` that nothing uses yet (created exclusively by the caller). */
const besideName = (path: string) =>
  join(dirname(path), `.${basename(path)}.zeng-${process.pid}-${scratchNames++}`);

/** The permission bits of a replaced file: its own, with the executable bits git's mode says. */
function fileMode(target: ProjectTarget, executable: boolean): number {
  if (target.kind !== "file") return executable ? 0o755 : 0o644;
  const own = target.mode & 0o777;
  return executable ? own | ((own & 0o444) >> 2) : own & ~0o111;
}

/**
 * Writes `content` at `relative` as git's `mode` says (`120000`: a link naming `content`,
 * `100755`: executable), replacing what is there without following it. Throws a `HostError`
 * (`worktreeFailed`) when the path is refused at the last check, or a file-system error.
 */
export async function writeProjectPath(
  top: string,
  relative: string,
  content: Buffer,
  mode: string,
): Promise<void> {
  const target = await recheck(top, relative);
  await makeFolders(top, relative);
  const path = join(top, relative);
  const scratch = besideName(path);
  try {
    if (mode === "120000") {
      await symlink(content.toString("utf8"), scratch);
    } else {
      const flags =
        constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
      const handle = await open(scratch, flags, 0o600);
      try {
        await handle.writeFile(content);
        await handle.chmod(fileMode(target, mode === "100755"));
      } finally {
        await handle.close();
      }
    }
    await rename(scratch, path);
  } catch (error) {
    await unlink(scratch).catch(() => {});
    throw error;
  }
}

/** Removes the file or link at `relative` (never what a link names); nothing when absent. */
export async function deleteProjectPath(top: string, relative: string): Promise<void> {
  const target = await recheck(top, relative);
  if (target.kind !== "absent") await unlink(join(top, relative));
}
