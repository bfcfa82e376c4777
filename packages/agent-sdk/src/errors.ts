// The operational failures a query ends with.

/** The query was aborted through `options.abortController` (the generator throws it). */
export class AbortError extends Error {
  readonly code = "agentSdk.aborted";
  constructor(message = "the query was aborted") {
    super(message);
    this.name = "AbortError";
  }
}

/** A prompt or option the engine cannot take (bad streaming input, an unknown mode). */
export class QueryOptionError extends Error {
  constructor(
    readonly code: "agentSdk.badOption" | "agentSdk.badMessage",
    message: string,
  ) {
    super(message);
    this.name = "QueryOptionError";
  }
}
