/** What went wrong in a host operation; stable strings a caller can branch on. */
export type HostErrorCode =
  | "git_failed"
  | "checkpoint_not_found"
  | "fingerprint_failed"
  | "sandbox_unavailable"
  | "not_git_repository"
  | "worktree_failed"
  | "spawn_refused";

/** An operational failure of the host (git missing or failing, an unreadable folder). */
export class HostError extends Error {
  readonly code: HostErrorCode;

  constructor(code: HostErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "HostError";
    this.code = code;
  }
}
