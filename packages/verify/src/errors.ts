/** Codes of the operational failures this package reports. */
export type VerifyErrorCode = "rootUnreadable" | "fingerprintFailed" | "aborted";

/** An operational failure (not an expected outcome such as a failing check). */
export class VerifyError extends Error {
  readonly code: VerifyErrorCode;
  override readonly cause: unknown;

  constructor(code: VerifyErrorCode, message: string, cause?: unknown) {
    super(message);
    this.name = "VerifyError";
    this.code = code;
    this.cause = cause;
  }
}
