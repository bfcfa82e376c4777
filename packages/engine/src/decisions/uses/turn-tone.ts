import { TurnTone, lazily } from "@z-engine/protocol";
import { z } from "zod";
import type { DecisionUse } from "../use.js";

const Tone = lazily(() => z.object({ tone: TurnTone }));

const INSTRUCTIONS =
  'Judge the tone of the user in this exchange with a coding agent. Reply with JSON only: {"tone": "neutral" | "satisfied" | "frustrated" | "confused"}.';

/** turn_tone (seam: turn end, in the background): the user's tone, for `turnToneJudged`. */
export const turnTone: DecisionUse<"turnEnd"> = {
  name: "turn_tone",
  seam: "turnEnd",
  module: "uses/turn-tone.ts",
  async decide(input, ctx) {
    const question = `User:\n${input.prompt.slice(0, 3000)}\n\nAgent:\n${input.answer.slice(0, 3000)}`;
    return ctx.sidecar.ask(INSTRUCTIONS, question, Tone, ctx.signal);
  },
  describe: (advice) => `tone ${advice.tone ?? "none"}`,
};
