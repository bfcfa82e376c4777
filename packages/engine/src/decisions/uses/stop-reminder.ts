import { lazily } from "@z-engine/protocol";
import { z } from "zod";
import type { DecisionUse } from "../use.js";

/** The reminder the run continues with when the answer claims success without evidence. */
export const STOP_REMINDER =
  "Your answer says the work succeeded, but nothing in this turn shows it: no check ran. Run the relevant check (Verify), or say plainly what you did not verify.";

/** Words that make an answer a claim of success (a cheap filter before asking the model). */
const CLAIM = /\b(pass(es|ed|ing)?|fixed|works?|working|succeed(s|ed)?|green|resolved|done)\b/i;

const Verdict = lazily(() => z.object({ claimsSuccess: z.boolean(), hasEvidence: z.boolean() }));

const INSTRUCTIONS =
  'You review a coding agent\'s final answer. Reply with JSON only: {"claimsSuccess": boolean, "hasEvidence": boolean}. claimsSuccess: the answer says tests pass, a bug is fixed or the change works. hasEvidence: the facts given show a check ran in this turn.';

/**
 * stop_reminder (seam: stop boundary): when the final answer claims success and no check ran
 * this turn, the fast model is asked whether the claim lacks evidence; if so the run
 * continues once with STOP_REMINDER. Answers without claim words abstain without a request.
 */
export const stopReminder: DecisionUse<"stopBoundary"> = {
  name: "stop_reminder",
  seam: "stopBoundary",
  module: "uses/stop-reminder.ts",
  async decide(input, ctx) {
    if (input.checksThisTurn > 0 || !CLAIM.test(input.answer)) return undefined;
    const question = `Files changed this turn: ${input.filesChanged ? "yes" : "no"}. Checks run this turn: ${input.checksThisTurn}.\n\nFinal answer:\n${input.answer}`;
    const verdict = await ctx.sidecar.ask(INSTRUCTIONS, question, Verdict, ctx.signal);
    if (!verdict?.claimsSuccess || verdict.hasEvidence) return undefined;
    return { reminder: STOP_REMINDER };
  },
  describe: () => "remind: success claimed without evidence",
};
