import { lstat } from "node:fs/promises";
import type { Action } from "./external.js";
import { linkPath, realPath } from "./paths.js";

/**
 * The stand-in for the other names of a file with several hard links, in a write action. It
 * is not an absolute path, so the gate treats it as a path known only at run time: it is
 * never inside the project, no path rule matches it, and the write asks in every mode but
 * bypass (and when deny rules exist, since they cannot be checked against names not known).
 */
export const OTHER_HARD_LINKS = "(the file's other hard links, not known)";

/** Where a file tool's path leads. */
export interface FileTarget {
  /** The real absolute path, symlinks (dangling ones too) followed: what the tool reads or writes. */
  readonly path: string;
  /** The input's own location: its folders resolved, its last part not followed. */
  readonly link: string;
  /** True when `path` is a regular file with more than one hard link (its other names are unknown). */
  readonly hardLinked: boolean;
}

/** Resolves a file tool's input path. Never rejects. */
export async function fileTarget(input: string, cwd: string): Promise<FileTarget> {
  const [path, link] = await Promise.all([realPath(input, cwd), linkPath(input, cwd)]);
  const info = await lstat(path).catch(() => null);
  return { path, link, hardLinked: info?.isFile() === true && info.nlink > 1 };
}

/**
 * The paths the gate checks for a target: the real path, the link's location when it differs
 * (both must pass every rule), and for a write of a hard-linked file {@link OTHER_HARD_LINKS}.
 */
export function targetPaths(target: FileTarget, kind: "read" | "write"): string[] {
  const paths = target.link === target.path ? [target.path] : [target.path, target.link];
  if (kind === "write" && target.hardLinked) paths.push(OTHER_HARD_LINKS);
  return paths;
}

/** The action of a file tool on one path. Never rejects. */
export async function fileAction(
  input: string,
  cwd: string,
  kind: "read" | "write",
): Promise<Action> {
  return { kind, paths: targetPaths(await fileTarget(input, cwd), kind) };
}
