// The operational failures a query ends with.

/** The query was aborted through `options.abortController` (the generator throws it). */
export class AbortError extends Error {
  readonly code = "agentSdk.aborted";
  constructor(message = "the query was aborted") {
    super(message);
    this.name = "AbortError";
  }
}

/** An option zeng cannot honour (`forkSession`): the generator throws it before any turn. */
export class QueryOptionError extends Error {
  constructor(
    readonly code: "agentSdk.badOption",
    message: string,
  ) {
    super(message);
    this.name = "QueryOptionError";
  }
}
