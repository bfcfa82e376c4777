import { ScriptedModel, type ScriptResponse } from "@z-engine/testkit";
import { createSidecar } from "../sidecars/sidecar.js";
import type { UseContext } from "../decisions/use.js";

/**
 * A use's context for unit tests: the fast model answers with `responses` in order, no
 * native models, a fresh memory; `turnId` when the use reads one.
 */
export function scriptedUseContext(
  responses: readonly ScriptResponse[],
  turnId?: string,
): { ctx: UseContext; model: ScriptedModel } {
  const model = new ScriptedModel([...responses]);
  const ctx: UseContext = {
    signal: new AbortController().signal,
    sidecar: createSidecar(() => ({ client: model, model: "fast" })),
    native: { score: async () => undefined, prepare: () => {} },
    memory: new Map(),
    ...(turnId ? { turnId: turnId as NonNullable<UseContext["turnId"]> } : {}),
  };
  return { ctx, model };
}
