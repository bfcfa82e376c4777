import { Effort, lazily } from "@z-engine/protocol";
import { z } from "zod";
import type { DecisionUse } from "../use.js";

const Route = lazily(() => z.object({ effort: Effort, reason: z.string().max(200) }));

const INSTRUCTIONS =
  'Choose the reasoning effort a coding agent needs for the request below. Reply with JSON only: {"effort": one of the allowed values, "reason": "<a few words>"}.';

/**
 * route (seam: route): the fast model picks the turn's effort among the efforts the task
 * allows; an effort outside them abstains. The seam emits `routeChosen` and applies it to
 * the turn's requests only when the session has no effort of its own.
 */
export const route: DecisionUse<"route"> = {
  name: "route",
  seam: "route",
  module: "uses/route.ts",
  async decide(input, ctx) {
    if (input.efforts.length === 0) return undefined;
    const question = `Allowed: ${input.efforts.join(", ")}\n\nRequest:\n${input.prompt}`;
    const chosen = await ctx.sidecar.ask(INSTRUCTIONS, question, Route, ctx.signal);
    if (!chosen || !input.efforts.includes(chosen.effort)) return undefined;
    return chosen;
  },
  describe: (advice) => `effort ${advice.effort}`,
};
