import { lazily } from "@z-engine/protocol";
import { z } from "zod";
import type { DecisionUse } from "../use.js";

const Size = lazily(() => z.object({ large: z.boolean() }));

const INSTRUCTIONS =
  'Is the coding request below large: several files or steps, a redesign, a migration, where planning first would help? Reply with JSON only: {"large": true | false}.';

/**
 * plan_suggest (seam: turn start): in ask mode, a request the fast model calls large gets a
 * card offering plan mode (`suggested`, kind `plan`); accepting switches to plan mode. After a
 * dismissal no plan card comes again in the chat. Other modes, short requests and "no" abstain.
 */
export const planSuggest: DecisionUse<"turnStart"> = {
  name: "plan_suggest",
  seam: "turnStart",
  module: "uses/plan-suggest.ts",
  async decide(input, ctx) {
    if (input.mode !== "ask" || input.prompt.trim().split(/\s+/).length < 8) return undefined;
    const answer = await ctx.sidecar.ask(INSTRUCTIONS, input.prompt, Size, ctx.signal);
    if (!answer?.large) return undefined;
    const text = "This looks like a large change: switch to plan mode and review a plan first?";
    return { suggestion: { kind: "plan", text } };
  },
  describe: () => "plan card",
};
