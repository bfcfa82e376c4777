import { registerSessionCases, registerStoreCases } from "./store-conformance-lifecycle.js";
import { registerRoundTripCases, registerWorkingSetCases } from "./store-conformance-log.js";
import { type Api, conformance, type StoreUnderTest } from "./store-conformance-support.js";

export type { StoreUnderTest } from "./store-conformance-support.js";

/**
 * Registers a vitest suite named `name` that checks a `SessionStore` against the contract
 * the engine relies on: create records, open/append/replay round trips, call order, the
 * working set (compaction, cleared results, rewind, task view), the resume report, list and
 * delete, locks, subagent transcripts, artifacts, closed sessions and, when the store can be
 * torn, crash repair. `factory` makes a fresh, empty store for each test. Await it at the top
 * level of a test file (vitest is loaded on demand, so importing testkit never needs it).
 */
export async function runStoreConformance(
  name: string,
  factory: () => StoreUnderTest | Promise<StoreUnderTest>,
): Promise<void> {
  // A computed specifier: bundlers leave it alone and hosts without vitest never load it.
  const specifier = "vitest";
  const api = (await import(specifier)) as Api;
  api.describe(`${name} (store conformance)`, () => registerTests(api, factory));
}

function registerTests(api: Api, factory: () => StoreUnderTest | Promise<StoreUnderTest>): void {
  const c = conformance(api, factory);
  registerRoundTripCases(c);
  registerWorkingSetCases(c);
  registerStoreCases(c);
  registerSessionCases(c);
}
