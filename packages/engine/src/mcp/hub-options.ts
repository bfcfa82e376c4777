import type { ReminderQueue } from "@z-engine/context";
import type { McpTokenStore } from "@z-engine/integrations";
import type { Journal } from "../journal/journal.js";
import type { McpSessionHooks } from "./hooks.js";

/** Where the hub reports: a session's journal, or a quiet one for `zeng mcp list`. */
export type McpReporter = Pick<Journal, "emit" | "notice">;

/** What a session's hub is built from. */
export interface McpHubOptions {
  readonly journal: McpReporter;
  readonly reminders: ReminderQueue;
  /** For `${VAR}` expansion (stdio servers start from the scrubbed environment, see `reconcile`). */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly clock: () => number;
  /** OAuth tokens of remote servers (`<data>/mcp-auth`); without it no server authorizes. */
  readonly authStore?: McpTokenStore;
  /** Elicitation, roots and sampling, as the session answers them. */
  readonly hooks?: McpSessionHooks;
  /** A headless session: its first request waits for the servers' starts. */
  readonly waitForStarts?: boolean;
}

/** The session's roots as the hub compares them (a reload with the same folders sends nothing). */
export function rootsText(options: Pick<McpHubOptions, "hooks">): string {
  return JSON.stringify(options.hooks?.roots?.() ?? []);
}
