/** A failure to open the session: one line for stderr and the exit code. */
export class OpenError extends Error {
  constructor(
    readonly exitCode: number,
    message: string,
  ) {
    super(message);
  }
}
