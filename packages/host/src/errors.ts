/** What went wrong in a host operation; stable strings a caller can branch on. */
export type HostErrorCode =
  | "gitFailed"
  /** The git door would not run the call (see `runGit`): nothing was started. */
  | "gitRefused"
  | "checkpointNotFound"
  | "fingerprintFailed"
  | "sandboxUnavailable"
  | "notGitRepository"
  | "worktreeFailed"
  /** A worktree's `.git` file or the engine's repository for it was changed by someone else. */
  | "worktreeTampered"
  /** A child the door refuses to start (a relative or forged folder). */
  | "spawnRefused";

/** An operational failure of the host (git missing or failing, an unreadable folder). */
export class HostError extends Error {
  readonly code: HostErrorCode;

  constructor(code: HostErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "HostError";
    this.code = code;
  }
}
