import { execFile } from "node:child_process";
import { readdir } from "node:fs/promises";
import { join, relative } from "node:path";
import { type Editor, wordAtCursor } from "./editor.js";

/** A slash command the input offers to complete. */
export interface SlashCommand {
  readonly name: string;
  readonly description: string;
  /** What the command takes, e.g. `[model]` (shown after the name). */
  readonly argumentHint?: string;
}

/** What Tab would put in place of the word at the cursor. */
export interface Completion {
  readonly label: string;
  readonly detail?: string;
  /** The text that replaces the word at the cursor. */
  readonly replacement: string;
}

const MAX_FILES = 20_000;
const SKIP = new Set([".git", "node_modules", "dist", ".z-engine"]);

async function walk(root: string): Promise<string[]> {
  const out: string[] = [];
  const queue = [root];
  while (queue.length > 0 && out.length < MAX_FILES) {
    const dir = queue.shift() as string;
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (SKIP.has(entry.name)) continue;
      const full = join(dir, entry.name);
      if (entry.isDirectory()) queue.push(full);
      else out.push(relative(root, full));
    }
  }
  return out;
}

/**
 * The project's files for `@` completion: `git ls-files` (tracked and untracked, without
 * ignored ones), else a walk that skips .git, node_modules and dist. At most 20,000 paths.
 * Never rejects.
 */
export function listProjectFiles(root: string): Promise<string[]> {
  return new Promise((resolve) => {
    execFile(
      "git",
      ["ls-files", "--cached", "--others", "--exclude-standard"],
      { cwd: root, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout) => {
        if (error) resolve(walk(root));
        else resolve(stdout.split("\n").filter(Boolean).slice(0, MAX_FILES));
      },
    );
  });
}

function rankFiles(files: readonly string[], query: string): string[] {
  const q = query.toLowerCase();
  const scored: Array<[number, string]> = [];
  for (const file of files) {
    const lower = file.toLowerCase();
    const at = lower.indexOf(q);
    if (at < 0) continue;
    const base = lower.slice(lower.lastIndexOf("/") + 1);
    scored.push([(base.startsWith(q) ? 0 : at === 0 ? 1 : 2) * 1000 + file.length, file]);
  }
  return scored.sort((a, b) => a[0] - b[0]).map(([, f]) => f);
}

/**
 * Completions for the word at the cursor: `/name` at the start of the prompt against the
 * command catalog, `@path` against the project's files. At most `limit`; empty otherwise.
 */
export function completionsFor(
  editor: Editor,
  commands: readonly SlashCommand[],
  files: readonly string[],
  limit = 6,
): Completion[] {
  const { word, start } = wordAtCursor(editor);
  if (word.startsWith("/") && start === 0) {
    const name = word.slice(1).toLowerCase();
    return commands
      .filter((c) => c.name.toLowerCase().startsWith(name))
      .slice(0, limit)
      .map((c) => ({
        label: `/${c.name}`,
        detail: c.argumentHint ? `${c.argumentHint}  ${c.description}` : c.description,
        replacement: `/${c.name} `,
      }));
  }
  if (word.startsWith("@")) {
    return rankFiles(files, word.slice(1))
      .slice(0, limit)
      .map((f) => ({ label: `@${f}`, replacement: `@${f} ` }));
  }
  return [];
}
