import { Effort, lazily } from "@z-engine/protocol";
import { z } from "zod";
import type { DecisionUse } from "../use.js";

const Route = lazily(() =>
  z.object({
    effort: Effort.nullish(),
    model: z.string().max(200).nullish(),
    reason: z.string().max(200),
  }),
);

const INSTRUCTIONS =
  'Size the request below for a coding agent: choose the reasoning effort it needs and, when other models are offered, whether a simple request may run on one of them. Reply with JSON only: {"effort": one of the allowed efforts or null, "model": one of the offered models or null, "reason": "<a few words>"}.';

/**
 * route (seam: route): the fast model picks the turn's effort among the efforts the task
 * allows and, when models are offered (`[decisions] allow_model_switch`), a model among them;
 * anything outside what was offered is dropped, and nothing left abstains. The seam emits
 * `routeChosen` and applies it to the main agent's requests of the turn, or to a subagent
 * that inherits the session's model (the model only).
 */
export const route: DecisionUse<"route"> = {
  name: "route",
  seam: "route",
  module: "uses/route.ts",
  async decide(input, ctx) {
    if (input.efforts.length === 0 && input.models.length === 0) return undefined;
    const offered = [
      `Allowed efforts: ${input.efforts.join(", ") || "none (keep the session's)"}`,
      `Offered models: ${input.models.join(", ") || "none (keep the session's)"}`,
    ].join("\n");
    const question = `${offered}\n\nRequest:\n${input.prompt}`;
    const chosen = await ctx.sidecar.ask(INSTRUCTIONS, question, Route, ctx.signal);
    if (!chosen) return undefined;
    const effort =
      chosen.effort && input.efforts.includes(chosen.effort) ? chosen.effort : undefined;
    const model = chosen.model && input.models.includes(chosen.model) ? chosen.model : undefined;
    if (!effort && !model) return undefined;
    return { ...(effort ? { effort } : {}), ...(model ? { model } : {}), reason: chosen.reason };
  },
  describe: (advice) =>
    [advice.effort ? `effort ${advice.effort}` : "", advice.model ? "model switched" : ""]
      .filter(Boolean)
      .join(", "),
};
