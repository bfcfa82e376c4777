import { lazily } from "@z-engine/protocol";
import { z } from "zod";
import type { DecisionUse } from "../use.js";

const Level = lazily(() =>
  z.object({ level: z.enum(["low", "normal", "high"]), reason: z.string().max(200) }),
);

const INSTRUCTIONS =
  'A coding agent waits for the user on the item below. How urgent is it for the person at the screen? Reply with JSON only: {"level": "low" | "normal" | "high", "reason": "<a few words>"}.';

/** attention (seam: attention): the fast model scores each waiting approval, for `urgencyScored`. */
export const attention: DecisionUse<"attention"> = {
  name: "attention",
  seam: "attention",
  module: "uses/attention.ts",
  async decide(input, ctx) {
    return ctx.sidecar.ask(INSTRUCTIONS, `${input.kind}: ${input.text}`, Level, ctx.signal);
  },
  describe: (advice) => `urgency ${advice.level}`,
};
