import { realpath } from "node:fs/promises";
import { release } from "node:os";
import { renderEnvironment } from "@z-engine/context";
import { findGitToplevel } from "./git-toplevel.js";

/** The git toplevel of a folder (see {@link findGitToplevel}); undefined outside a repository. */
export function gitToplevel(folder: string): Promise<string | undefined> {
  return findGitToplevel(folder);
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
