import { constants, type Stats } from "node:fs";
import { type FileHandle, lstat, open } from "node:fs/promises";

const { O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK, O_RDONLY, O_RDWR, O_WRONLY } = constants;

/**
 * An open regular file and its stat, or why it was not opened: `missing` (nothing there),
 * `folder`, or `other` (a FIFO, a device, a socket, a symlink that appeared), with a message.
 */
export type OpenedFile =
  | { readonly ok: true; readonly handle: FileHandle; readonly info: Stats }
  | { readonly ok: false; readonly reason: "missing" | "folder" | "other"; readonly error: string };

function refused(path: string, info: Stats): OpenedFile {
  const reason = info.isDirectory() ? "folder" : "other";
  return { ok: false, reason, error: notRegularMessage(path, info) };
}

function kindOf(info: Stats): string {
  if (info.isDirectory()) return "a directory";
  if (info.isSymbolicLink()) return "a symbolic link that does not resolve (a loop, or it changed)";
  if (info.isFIFO()) return "a FIFO (named pipe)";
  if (info.isCharacterDevice()) return "a character device";
  if (info.isBlockDevice()) return "a block device";
  if (info.isSocket()) return "a socket";
  return "not a regular file";
}

/** Why a file tool refuses `path`, written for the model. */
export function notRegularMessage(path: string, info: Stats): string {
  return `${path} is ${kindOf(info)}, not a regular file; file tools read and write regular files only.`;
}

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/**
 * Opens an existing regular file for reading (`read`) or in-place writing (`update`). The
 * path is checked with lstat first, so a FIFO, a device or a socket is never opened (opening
 * one can block or have effects); it is then opened with `O_NOFOLLOW | O_NONBLOCK` (a symlink
 * put there since is refused, and a file swapped for a FIFO cannot block) and checked again on
 * the open handle. Rejects only on an unexpected I/O error; the caller closes the handle.
 */
export async function openRegular(path: string, mode: "read" | "update"): Promise<OpenedFile> {
  const before = await lstat(path).catch((error: unknown) => errorCode(error) ?? "EIO");
  if (typeof before === "string") {
    const missing = before === "ENOENT" || before === "ENOTDIR";
    return {
      ok: false,
      reason: missing ? "missing" : "other",
      error: `Cannot open ${path}: ${before}`,
    };
  }
  if (!before.isFile()) return refused(path, before);
  const flags = (mode === "read" ? O_RDONLY : O_RDWR) | O_NOFOLLOW | O_NONBLOCK;
  let handle: FileHandle;
  try {
    handle = await open(path, flags);
  } catch (error) {
    const code = errorCode(error);
    if (code === "ENOENT") return { ok: false, reason: "missing", error: `${path} was removed.` };
    if (code === "ELOOP")
      return { ok: false, reason: "other", error: `${path} became a symbolic link; refused.` };
    throw error;
  }
  const info = await handle.stat();
  if (info.isFile()) return { ok: true, handle, info };
  await handle.close();
  return refused(path, info);
}

/**
 * Creates a new regular file with `O_CREAT | O_EXCL | O_NOFOLLOW`: it never follows a symlink
 * and never opens what appeared at the path since it was found missing (the error says so).
 * Rejects on other I/O errors; the caller closes the handle.
 */
export async function createRegular(
  path: string,
): Promise<
  | { readonly ok: true; readonly handle: FileHandle }
  | { readonly ok: false; readonly error: string }
> {
  try {
    return { ok: true, handle: await open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o666) };
  } catch (error) {
    if (errorCode(error) !== "EEXIST") throw error;
    return {
      ok: false,
      error: `${path} appeared after it was found missing (a file or a symbolic link); nothing was written. Read it, then try again.`,
    };
  }
}

/**
 * Reads an open file to its end, stopping when `signal` aborts (null then). Rejects on an I/O
 * error.
 */
export async function readAllOrCancel(
  handle: FileHandle,
  signal: AbortSignal,
): Promise<Buffer | null> {
  if (signal.aborted) return null;
  try {
    return await handle.readFile({ signal });
  } catch (error) {
    if (signal.aborted) return null;
    throw error;
  }
}
