import { execFile } from "node:child_process";
import { realpath } from "node:fs/promises";
import { release } from "node:os";
import { renderEnvironment } from "@z-engine/context";
import { safeGitCommand } from "@z-engine/host";

/**
 * The git toplevel of a folder, or undefined when it is not in a repository (or git refuses
 * the one it finds, such as a bare repository planted in the project). Git runs as host's
 * `safeGitCommand` builds it, so no repository setting starts a program. Never rejects.
 */
export function gitToplevel(folder: string): Promise<string | undefined> {
  const git = safeGitCommand(["rev-parse", "--show-toplevel"], {
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
  });
  return new Promise((resolve) => {
    execFile(
      git.program,
      git.args,
      { cwd: folder, timeout: 5000, env: git.env },
      (error, stdout) => {
        resolve(error ? undefined : stdout.trim() || undefined);
      },
    );
  });
}

/** The real path of a folder; rejects when it does not exist. */
export function realFolder(folder: string): Promise<string> {
  return realpath(folder);
}

/** The environment section, taken once at session start. */
export function environmentText(info: {
  projectRoot: string;
  repoRoot?: string;
  model: string;
  shell?: string;
  additionalDirs: readonly string[];
  now: number;
}): string {
  return renderEnvironment({
    projectRoot: info.projectRoot,
    ...(info.repoRoot ? { repoRoot: info.repoRoot } : {}),
    platform: process.platform,
    osRelease: release(),
    ...(info.shell ? { shell: info.shell } : {}),
    date: new Date(info.now).toISOString().slice(0, 10),
    model: info.model,
    additionalDirs: info.additionalDirs,
  });
}
