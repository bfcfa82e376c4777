import { existsSync, realpathSync } from "node:fs";
import { join, resolve } from "node:path";
import { PROTECTED_PATHS } from "@z-engine/protocol";

/**
 * What a sandboxed command may do. Everything is readable; only `writable` folders (and what
 * is inside them) can be written, except the `readOnlyInside` paths, which stay read-only
 * even when they do not exist yet (a command cannot create them).
 */
export interface SandboxProfile {
  /** The agent's root (the project, or a worktree agent's worktree); real absolute path. */
  readonly root: string;
  /** Writable folders, real absolute paths, the root included. */
  readonly writable: readonly string[];
  /** Protected absolute paths inside writable folders; they may not exist. */
  readonly readOnlyInside: readonly string[];
  /** False cuts the network (Linux: a network namespace of its own, so no localhost either). */
  readonly network: boolean;
  /**
   * Folders searched before each command for nested `.git` folders and files (a vendored
   * repository, a submodule), each then kept read-only like `readOnlyInside`: the root and
   * the additional directories. See host's README for what holds.
   */
  readonly gitScanRoots?: readonly string[];
}

/** Input for {@link buildSandboxProfile}; the engine maps `[shell.sandbox]` settings onto it. */
export interface SandboxProfileOptions {
  readonly root: string;
  readonly additionalDirectories?: readonly string[];
  readonly extraWritable?: readonly string[];
  readonly homeDir: string;
  readonly tmpDir: string;
  readonly allowNetwork?: boolean;
  /**
   * More absolute paths that stay read-only even inside a writable folder (the engine's own
   * data that a command must not change, such as worktree agents' repositories when the
   * data folder is under the temporary folder).
   */
  readonly readOnly?: readonly string[];
  /** Defaults to `process.platform`; decides the macOS-only caches. */
  readonly platform?: NodeJS.Platform;
}

/** Tool caches (relative to the home folder) that stay writable when they exist. */
export const TOOL_CACHES: readonly string[] = [
  ".cargo/registry",
  ".cargo/git",
  ".npm",
  ".cache",
  ".gradle",
  ".m2",
  ".local/share/pnpm",
  "go/pkg/mod",
];

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/**
 * Builds the profile: writable are the root, the additional directories, the temporary
 * folder, the tool caches that exist and the extra entries (symlinks resolved, duplicates
 * and missing caches dropped); protected are {@link PROTECTED_PATHS} under the root and each
 * additional directory, the `readOnly` entries, and every nested `.git` found there before
 * each command (`gitScanRoots`). Reads the file system (to resolve paths); never throws.
 */
export function buildSandboxProfile(options: SandboxProfileOptions): SandboxProfile {
  const root = real(options.root);
  const projects = [root, ...(options.additionalDirectories ?? []).map(real)];
  const caches = [...TOOL_CACHES];
  if ((options.platform ?? process.platform) === "darwin") caches.push("Library/Caches");
  const cacheDirs = caches
    .map((relative) => join(options.homeDir, relative))
    .filter((path) => existsSync(path))
    .map(real);
  const writable = [
    ...projects,
    real(options.tmpDir),
    ...cacheDirs,
    ...(options.extraWritable ?? []).map(real),
  ];
  return {
    root,
    writable: [...new Set(writable)],
    readOnlyInside: [
      ...projects.flatMap((dir) => PROTECTED_PATHS.map((path) => join(dir, path))),
      ...(options.readOnly ?? []).map(real),
    ],
    network: options.allowNetwork ?? false,
    gitScanRoots: [...new Set(projects)],
  };
}
