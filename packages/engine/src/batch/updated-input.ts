import { type GateCore, type GatedCall, type GateRun, gateCall } from "./gate.js";

/**
 * A call the user allowed with another input (an approval's `updatedInput`): gated again on
 * that input, in full (validation, PreToolUse hooks, rules, policy), so a deny rule still
 * holds; an ask on it is answered by the allow the user just gave. Rejects only when the log
 * cannot be written.
 */
export async function regateWithInput(
  core: GateCore,
  run: GateRun,
  call: Extract<GatedCall, { kind: "ask" }>,
  input: Record<string, unknown>,
): Promise<GatedCall> {
  const regated = await gateCall(core, run, { ...call.use, input }, undefined);
  if (regated.kind !== "ask") return regated;
  const { kind: _kind, request: _request, ...ready } = regated;
  return { kind: "ready", ...ready };
}
