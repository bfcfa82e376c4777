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
 * The commands matching what is typed after `/`, best first: names that start with it, then
 * names that contain it, then descriptions that do. All of them for a bare `/`. Pure.
 */
export function matchCommands(commands: readonly SlashCommand[], typed: string): SlashCommand[] {
  const q = typed.toLowerCase();
  const score = (c: SlashCommand) => {
    const name = c.name.toLowerCase();
    if (name.startsWith(q)) return 0;
    if (name.includes(q)) return 1;
    return c.description.toLowerCase().includes(q) ? 2 : -1;
  };
  return commands
    .map((c, i) => ({ c, i, s: score(c) }))
    .filter((x) => x.s >= 0)
    .sort((a, b) => a.s - b.s || a.i - b.i)
    .map((x) => x.c);
}

function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++)
      next[j] = Math.min(
        (row[j] as number) + 1,
        (next[j - 1] as number) + 1,
        (row[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    row = next;
  }
  return row[b.length] as number;
}

/** Up to three command names close to a mistyped one (a few edits away, or sharing its start). */
export function closestCommands(name: string, names: readonly string[]): string[] {
  const limit = Math.max(2, Math.floor(name.length / 3));
  return names
    .map((n) => ({ n, d: editDistance(name, n) }))
    .filter(({ n, d }) => d <= limit || n.startsWith(name.slice(0, 3)))
    .sort((a, b) => a.d - b.d || a.n.localeCompare(b.n))
    .slice(0, 3)
    .map(({ n }) => n);
}

/**
 * Completions for the word at the cursor: `/name` at the start of the prompt against the
 * whole command catalog (see `matchCommands`), `@path` against the project's files (at most
 * `limit`). Empty otherwise.
 */
export function completionsFor(
  editor: Editor,
  commands: readonly SlashCommand[],
  files: readonly string[],
  limit = 6,
): Completion[] {
  const { word, start } = wordAtCursor(editor);
  if (word.startsWith("/") && start === 0) {
    return matchCommands(commands, word.slice(1)).map((c) => ({
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
