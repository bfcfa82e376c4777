import { listProjectFiles as listFiles } from "@z-engine/engine";
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

/**
 * The project's files for `@` completion, as the engine lists them (git's tracked and
 * untracked files through its git door, so nothing the project's git config names runs;
 * else a walk). At most 20,000 paths. Never rejects.
 */
export async function listProjectFiles(
  root: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<string[]> {
  return (await listFiles(root, env)).slice(0, MAX_FILES);
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
