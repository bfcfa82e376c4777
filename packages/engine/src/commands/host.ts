import type { PermissionMode } from "@z-engine/protocol";
import type { SessionCore } from "../core/session-core.js";

/** What an engine built-in needs of its session beyond SessionCore. */
export interface CommandHost extends SessionCore {
  /** True while a turn runs. */
  readonly busy: boolean;
  readonly turnCount: number;
  setMode(mode: PermissionMode): Promise<void>;
  /** The session's lifetime signal for work a command starts (compaction, `!` lines). */
  readonly commandSignal: AbortSignal;
  /** The log's path (empty when the store keeps no file). */
  readonly logPath: string;
  /** The user's config folder (user commands, skills, AGENTS.md). */
  readonly userConfigDir: string;
  /** The instruction files changed: re-read them at the next turn. */
  reloadInstructions(): void;
  /** Queues `text` as the user's next turn (an accepted review suggestion). */
  queuePrompt(text: string): void;
}
