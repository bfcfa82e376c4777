/** The codes a ConfigError carries. */
export type ConfigErrorCode =
  | "settingsUnparseable"
  | "writeFailed"
  | "invalidRule"
  | "trustWriteFailed";

/** An operational failure of config (a file that cannot be written or safely edited). */
export class ConfigError extends Error {
  override readonly name = "ConfigError";
  readonly code: ConfigErrorCode;

  constructor(code: ConfigErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}
