import { strict as assert } from "node:assert";
import {
  type FakeProviderRequest,
  reply,
  type ScriptReply,
  type ScriptResponse,
  type WireFormat,
  when,
} from "@z-engine/testkit";
import { offersTools, wireShapeProblems } from "../wire/shape.js";
import { type FaultWorld, type FaultWorldOptions, faultWorld } from "./world.js";

/** One row of the fault matrix: a fault and the spec's behaviour, checked over one wire format. */
export interface FaultRow {
  readonly name: string;
  /** Resolves when the behaviour holds; rejects (an assertion) when it does not. */
  run(format: WireFormat): Promise<void>;
}

/** A response for the main agent's requests only. */
export const main = (response: ScriptReply): ScriptResponse<FakeProviderRequest> =>
  when(offersTools, response);

/** A compaction summary (requests that offer no tools). */
export const summary = (text: string): ScriptResponse<FakeProviderRequest> =>
  when((r) => !offersTools(r), reply.text(text));

/** Runs `body` in a fresh fault world and disposes of it, whatever happens. */
export async function inWorld(
  format: WireFormat,
  options: FaultWorldOptions,
  body: (w: FaultWorld) => Promise<void>,
): Promise<void> {
  const w = await faultWorld(format, options);
  try {
    await body(w);
  } finally {
    await w.dispose();
  }
}

/** Asserts that every request the provider received was well formed for its wire format. */
export function assertWellFormed(w: FaultWorld): void {
  for (const [i, request] of w.provider.requests.entries())
    assert.deepEqual(wireShapeProblems(request), [], `request ${i} is malformed`);
}

/** The log's records of one kind. */
export async function recordsOf(w: FaultWorld, kind: string) {
  return (await w.log()).filter((r) => r.kind === kind);
}
