// The operational failures a query ends with.

/** The query was aborted through `options.abortController` (the generator throws it). */
export class AbortError extends Error {
  readonly code = "agentSdk.aborted";
  constructor(message = "the query was aborted") {
    super(message);
    this.name = "AbortError";
  }
}
