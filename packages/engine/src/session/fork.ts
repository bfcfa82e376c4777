import { logRecord, type Replay } from "@z-engine/store";
import type { SessionOverrides } from "../settings/session-config.js";
import type { OpenContext } from "./open-context.js";
import { resumeEngineSession } from "./open.js";
import type { EngineSession } from "./session.js";

/**
 * Copies a stored session into a new one and opens the copy (`--fork-session`, the Agent
 * SDK's `forkSession`): the new session starts from the original's conversation as the model
 * sees it now (its working set: compaction summaries and cleared results included), its
 * title (marked as a fork), mode, model and effort, and a notice naming the original. The
 * original is only read; it is left as it was. Not copied: usage (the fork's cost starts at
 * zero), checkpoints (code is restored only to the fork's own checkpoints), subagent
 * transcripts, check records and artifacts. The copy's id is `newId` when given. Rejects as
 * resuming does (unknown id, locked, no project folder), or `exists` for a taken `newId`; a
 * copy that fails half-way is deleted.
 */
export async function forkEngineSession(
  ctx: OpenContext,
  id: string,
  overrides: SessionOverrides = {},
  newId?: string,
): Promise<EngineSession> {
  const original = await ctx.store.open(id);
  let copyId: string;
  try {
    copyId = await copyInto(ctx, id, original.replay, newId);
  } finally {
    await original.session.close();
  }
  return resumeEngineSession(ctx, copyId, overrides);
}

/** Writes the new session's log from the original's replay; resolves with its id. */
async function copyInto(
  ctx: OpenContext,
  id: string,
  replay: Replay,
  newId: string | undefined,
): Promise<string> {
  const { state, workingSet } = replay;
  if (state.projectRoot === null)
    throw new Error(`session ${id} has no project folder (a v1 chat): it cannot be forked`);
  const copy = await ctx.store.create({
    ...(newId === undefined ? {} : { id: newId }),
    projectRoot: state.projectRoot,
    title: `${state.title ?? id} (fork)`,
    ...(state.mode ? { mode: state.mode } : {}),
    ...(state.model ? { model: state.model } : {}),
    ...(state.effort ? { effort: state.effort } : {}),
  });
  try {
    const ts = ctx.clock();
    for (const message of workingSet) await copy.append(logRecord("message", { message }, ts));
    const message = `Forked from session ${id} (${workingSet.length} messages); the original is unchanged.`;
    await copy.append(logRecord("notice", { level: "info", code: "session.forked", message }, ts));
    await copy.close();
    return copy.id;
  } catch (error) {
    await copy.close().catch(() => {});
    await ctx.store.delete(copy.id).catch(() => {});
    throw error;
  }
}
