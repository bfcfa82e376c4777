/** What went wrong, as a stable string a host can branch on. */
export type StoreErrorCode =
  | "notFound"
  | "locked"
  | "invalidSessionId"
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
