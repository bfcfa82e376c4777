import type { Badge } from "@z-engine/protocol";
import { assessBadge } from "@z-engine/verify";
import type { SessionCore } from "../core/session-core.js";
import type { TurnState } from "../core/turn-state.js";

/** Whether files changed this turn, and the fingerprint now (design.md §3). */
export interface ChangeState {
  readonly changed: boolean;
  readonly fingerprint: string;
}

/**
 * "Files changed this turn": a write tool reported a changed path, or the workspace
 * fingerprint now differs from the one at turn start (this catches changes made by Bash).
 */
export async function changeState(
  core: Pick<SessionCore, "fingerprint">,
  turn: TurnState,
): Promise<ChangeState> {
  const [start, fingerprint] = await Promise.all([
    turn.gitWork.fingerprint(),
    core.fingerprint().catch(() => ""),
  ]);
  const moved = start !== null && fingerprint !== "" && fingerprint !== start;
  return { changed: turn.writtenPaths.size > 0 || moved, fingerprint };
}

/** The turn's badge, read from the check records only. Never rejects. */
export async function turnBadge(
  core: Pick<SessionCore, "fingerprint" | "config" | "checkRecords">,
  turn: TurnState,
  state?: ChangeState,
): Promise<Badge> {
  const s = state ?? (await changeState(core, turn));
  return assessBadge({
    filesChanged: s.changed,
    mode: core.config.settings.verification.mode,
    records: core.checkRecords,
    currentFingerprint: s.fingerprint,
    ...(turn.lastChangeAt !== undefined ? { lastChangeAt: turn.lastChangeAt } : {}),
    viaBash: turn.bashCheckRuns,
  });
}
