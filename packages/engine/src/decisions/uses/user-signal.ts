import { lazily } from "@z-engine/protocol";
import { z } from "zod";
import type { DecisionUse } from "../use.js";

const Signal = lazily(() => z.object({ correcting: z.boolean(), frustrated: z.boolean() }));

const INSTRUCTIONS =
  'Read a user\'s new message to a coding agent. Does it correct what the agent did or said ("no, that\'s wrong", "I said X, not Y"), and does it sound frustrated? Reply with JSON only: {"correcting": true | false, "frustrated": true | false}.';

/**
 * user_signal (seam: turn start): a message that corrects the agent, or sounds frustrated,
 * gets a reminder in the opening message to re-read the request and change course rather
 * than repeat itself. A first message of a chat (nothing to correct) and "no" abstain.
 */
export const userSignal: DecisionUse<"turnStart"> = {
  name: "user_signal",
  seam: "turnStart",
  module: "uses/user-signal.ts",
  async decide(input, ctx) {
    if (input.prompt.trim() === "") return undefined;
    const answer = await ctx.sidecar.ask(
      INSTRUCTIONS,
      input.prompt.slice(0, 3000),
      Signal,
      ctx.signal,
    );
    if (!answer || (!answer.correcting && !answer.frustrated)) return undefined;
    const reminder = answer.correcting
      ? "The user is correcting you: re-read their message, say briefly what you got wrong, and change course instead of repeating the last approach."
      : "The user sounds frustrated: be brief, confirm what they want, and make sure the next step addresses it.";
    return { reminders: [reminder] };
  },
  describe: () => "1 reminder",
};
