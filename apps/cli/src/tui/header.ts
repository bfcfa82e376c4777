import { readFile, stat } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import type { PermissionMode } from "@z-engine/protocol";
import type { Header } from "./view.js";

/** The text without control characters (escapes a hostile `.git/HEAD` could hold). */
function printable(text: string): string {
  return [...text]
    .filter((ch) => {
      const code = ch.codePointAt(0) as number;
      return code >= 0x20 && !(code >= 0x7f && code <= 0x9f);
    })
    .join("");
}

async function gitDir(start: string): Promise<string | undefined> {
  for (let dir = resolve(start); ; dir = dirname(dir)) {
    const dotGit = join(dir, ".git");
    const info = await stat(dotGit).catch(() => undefined);
    if (info?.isDirectory()) return dotGit;
    if (info?.isFile()) {
      // A worktree or submodule: `gitdir: <path>`.
      const text = await readFile(dotGit, "utf8").catch(() => "");
      const m = /^gitdir:\s*(.+)$/m.exec(text);
      return m ? resolve(dir, (m[1] as string).trim()) : undefined;
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * The git branch of the folder, read from `HEAD` (no git process runs): the branch name, a
 * short commit for a detached head, or undefined outside a repository. Never rejects.
 */
export async function gitBranch(folder: string): Promise<string | undefined> {
  const dir = await gitDir(folder);
  if (!dir) return undefined;
  const head = (await readFile(join(dir, "HEAD"), "utf8").catch(() => "")).trim();
  const ref = /^ref:\s*refs\/heads\/(.+)$/.exec(head);
  const name = ref
    ? (ref[1] as string)
    : /^[0-9a-f]{7,64}$/i.test(head)
      ? `detached at ${head.slice(0, 7)}`
      : undefined;
  return name === undefined ? undefined : printable(name).slice(0, 80);
}

/** The key line of the header: where the key comes from, or that there is none for the host. */
export function keyLine(key: { host: string; source?: string; problem?: string }): string {
  if (key.problem) return key.problem;
  if (key.source) return `${key.source} (for ${key.host})`;
  return `none found for ${key.host}: set ZENGINE_API_KEY or the provider's own variable`;
}

/** The welcome header's facts. */
export async function buildHeader(
  folder: string,
  start: { model: string; mode: PermissionMode },
  key: string,
): Promise<Header> {
  const branch = await gitBranch(folder);
  return { folder, ...(branch ? { branch } : {}), model: start.model, mode: start.mode, key };
}
