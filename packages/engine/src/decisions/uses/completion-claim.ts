import { lazily } from "@z-engine/protocol";
import { z } from "zod";
import type { DecisionUse } from "../use.js";

const Claim = lazily(() =>
  z.object({
    claim: z.string().nullable(),
    kind: z.enum(["tests", "build", "typecheck", "other"]).default("other"),
  }),
);

const INSTRUCTIONS =
  'Find the sentence of a coding agent\'s final answer that claims a verifiable result ("all tests pass", "the build is green"). Reply with JSON only: {"claim": "<the sentence, copied exactly>" or null, "kind": "tests" | "build" | "typecheck" | "other"}.';

/**
 * completion_claim (seam: completion): the fast model finds a verifiable claim in the final
 * answer. Only a claim copied from the answer counts (a made-up one abstains); the seam
 * emits `completionClaimUnchecked` when no check ran this turn to back it.
 */
export const completionClaim: DecisionUse<"completion"> = {
  name: "completion_claim",
  seam: "completion",
  module: "uses/completion-claim.ts",
  async decide(input, ctx) {
    if (input.answer.trim().length === 0) return undefined;
    const found = await ctx.sidecar.ask(INSTRUCTIONS, input.answer, Claim, ctx.signal);
    const claim = found?.claim?.trim();
    if (!found || !claim || !input.answer.includes(claim)) return undefined;
    return { claim, kind: found.kind };
  },
  describe: (advice) => `claim (${advice.kind})`,
};
