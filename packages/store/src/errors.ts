/** What went wrong, as a stable string a host can branch on. */
export type StoreErrorCode =
  | "notFound"
  | "locked"
  | "invalidSessionId"
  /** `create` was given an id a session already has. */
  | "exists"
  | "invalidRecord"
  | "appendFailed"
  | "closed"
  | "importFailed"
  | "io";

/** An operational failure of the store: a missing session, a held lock, an I/O error. */
export class StoreError extends Error {
  readonly code: StoreErrorCode;

  constructor(code: StoreErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "StoreError";
    this.code = code;
  }
}

/** A session is held by another writer; `pid` names the owner. */
export class SessionLockedError extends StoreError {
  readonly pid: number;
  readonly hostname: string;

  constructor(sessionId: string, pid: number, hostname: string) {
    super("locked", `session ${sessionId} is open in another process (pid ${pid} on ${hostname})`);
    this.name = "SessionLockedError";
    this.pid = pid;
    this.hostname = hostname;
  }
}

/** The errno code of a Node system error, if any. */
export function errnoCode(error: unknown): string | undefined {
  if (typeof error === "object" && error !== null && "code" in error) {
    const code = (error as { code: unknown }).code;
    return typeof code === "string" ? code : undefined;
  }
  return undefined;
}

/** What a failed write's errno means to a user, by code. */
const IO_REASONS: Readonly<Record<string, string>> = {
  ENOSPC: "no space left on the device",
  EDQUOT: "the disk quota is exceeded",
  EIO: "an I/O error on the device",
  EROFS: "the file system is read-only",
  EFBIG: "the file is too large for the file system",
};

/** Why a system call failed, in words a user can act on: `an I/O error on the device (EIO)`. */
function whyFailed(error: unknown): string {
  const code = errnoCode(error);
  const known = code === undefined ? undefined : IO_REASONS[code];
  if (known !== undefined) return `${known} (${code})`;
  return error instanceof Error ? error.message : String(error);
}

/**
 * The `appendFailed` error of a write to `target` that failed with `error`: its message says
 * why in words a user can act on (`no space left on the device (ENOSPC)`), not only where.
 */
export function appendFailedError(target: string, error: unknown): StoreError {
  return new StoreError("appendFailed", `cannot append to ${target}: ${whyFailed(error)}`, {
    cause: error,
  });
}

/** The `io` error of an fsync of `target` that failed with `error`, saying why (see above). */
export function syncFailedError(target: string, error: unknown): StoreError {
  return new StoreError("io", `cannot sync ${target}: ${whyFailed(error)}`, { cause: error });
}
