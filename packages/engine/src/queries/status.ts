import type { Badge, Effort, PermissionMode } from "@z-engine/protocol";
import { assessBadge } from "@z-engine/verify";
import type { SessionHandle } from "../session/handle.js";
import { type ContextUsage, contextUsage } from "./context-usage.js";
import { gitBranch } from "./git-branch.js";
import { targetOf } from "./registry.js";

/** What a session header shows: where it runs, with what, and how full its context is. */
export interface SessionStatus {
  readonly projectRoot: string;
  /** The git branch (or short commit) checked out, null outside a repository. */
  readonly branch: string | null;
  readonly trusted: boolean;
  readonly mode: PermissionMode;
  readonly model: string;
  /** The session's effort, undefined for the model's default. */
  readonly effort: Effort | undefined;
  /** A turn is running. */
  readonly busy: boolean;
  readonly turnCount: number;
  readonly context: ContextUsage;
  /** The badge of the last turn that ended, when one did. */
  readonly lastBadge: Badge | null;
}

/** The session's state now, for its header. Reads files only (git's HEAD); never rejects. */
export async function sessionStatus(handle: SessionHandle): Promise<SessionStatus> {
  const { session } = targetOf(handle);
  const last = session.log.snapshot().transcript.findLast((r) => r.kind === "turnEnded");
  return {
    projectRoot: session.projectRoot,
    branch: await gitBranch(session.projectRoot),
    trusted: session.trusted,
    mode: session.mode,
    model: session.model,
    effort: session.effort,
    busy: session.busy,
    turnCount: session.turnCount,
    context: contextUsage(session),
    lastBadge: last?.kind === "turnEnded" ? last.badge : null,
  };
}

/**
 * The badge as the files are now, from the session's check records (verify's rules: only
 * records whose fingerprint matches the files now count). `filesChanged` says whether the
 * session's changes are still there to verify (after a rewind, say); false gives Not
 * applicable. Never rejects (a fingerprint that cannot be taken makes every record stale).
 */
export async function currentBadge(
  handle: SessionHandle,
  options: { readonly filesChanged: boolean },
): Promise<Badge> {
  const { session } = targetOf(handle);
  return assessBadge({
    filesChanged: options.filesChanged,
    mode: session.config.settings.verification.mode,
    records: session.checkRecords,
    currentFingerprint: await session.fingerprint().catch(() => ""),
  });
}
