/** Why a language server could not be used. */
export type LspErrorCode = "notInstalled" | "startFailed" | "crashed" | "timeout" | "requestFailed";

/** An operational failure of a language server, with a reason fit for the model. */
export class LspError extends Error {
  readonly code: LspErrorCode;
  constructor(code: LspErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "LspError";
    this.code = code;
  }
}
