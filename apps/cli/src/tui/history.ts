import { createHash } from "node:crypto";
import { appendFileSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** How many prompts a project's history keeps (older ones are dropped on load). */
export const HISTORY_LIMIT = 500;

/** The prompts typed in one project, oldest first, persisted in the data folder. */
export interface PromptHistory {
  readonly entries: readonly string[];
  /** Adds a prompt (a repeat of the last one is not added twice). Never throws. */
  add(prompt: string): void;
}

/** `<dataDir>/history/<hash of the project folder>.jsonl`: one JSON string per line. */
export function historyFile(dataDir: string, projectRoot: string): string {
  const hash = createHash("sha256").update(projectRoot).digest("hex").slice(0, 16);
  return join(dataDir, "history", `${hash}.jsonl`);
}

function load(file: string): string[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return [];
  }
  const entries: string[] = [];
  for (const line of text.split("\n")) {
    if (line === "") continue;
    try {
      const value: unknown = JSON.parse(line);
      if (typeof value === "string") entries.push(value);
    } catch {
      // A damaged line (a torn write) is skipped; the rest still loads.
    }
  }
  return entries.slice(-HISTORY_LIMIT);
}

/**
 * Opens a project's prompt history. A missing or damaged file gives what could be read;
 * a write that fails (read-only data folder) keeps the prompt for this run only.
 */
export function openHistory(dataDir: string, projectRoot: string): PromptHistory {
  const file = historyFile(dataDir, projectRoot);
  const entries = load(file);
  return {
    entries,
    add(prompt) {
      if (prompt.trim() === "" || entries.at(-1) === prompt) return;
      entries.push(prompt);
      try {
        // The user's prompts: theirs alone, as the data folder is.
        mkdirSync(join(file, ".."), { recursive: true, mode: 0o700 });
        appendFileSync(file, `${JSON.stringify(prompt)}\n`, { mode: 0o600 });
      } catch {
        // Kept in memory; the next run starts without it.
      }
    },
  };
}

/** A history to hand the screen before the project's file is known; `attach` loads it. */
export interface DeferredHistory extends PromptHistory {
  /** Switches to the project's history; prompts added before are added to it, in order. */
  attach(history: PromptHistory): void;
}

/** A history that starts empty and becomes the project's once `attach`ed. */
export function deferredHistory(): DeferredHistory {
  let inner: PromptHistory | undefined;
  const early: string[] = [];
  return {
    get entries() {
      return inner ? inner.entries : early;
    },
    add(prompt) {
      if (inner) inner.add(prompt);
      else if (prompt.trim() !== "" && early.at(-1) !== prompt) early.push(prompt);
    },
    attach(history) {
      inner = history;
      for (const prompt of early.splice(0)) history.add(prompt);
    },
  };
}
