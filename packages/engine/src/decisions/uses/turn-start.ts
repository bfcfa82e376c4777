import { lazily } from "@z-engine/protocol";
import { z } from "zod";
import type { DecisionUse } from "../use.js";

/** Reminders a turn start may add, at most. */
export const MAX_TURN_START_REMINDERS = 2;

const Reminders = lazily(() => z.object({ reminders: z.array(z.string()).max(8) }));

const INSTRUCTIONS =
  'A user starts a turn with a coding agent with the request below. Name at most two short cautions the request calls for that the agent could miss (e.g. "the user asked for a plan only: do not edit files", "the request mentions production: run no deploy or migration command"). Reply with JSON only: {"reminders": ["<at most 200 characters>", ...]}; an empty list when nothing calls for caution.';

/**
 * turn_start (seam: turn start): the fast model reads the user's request and names at most
 * MAX_TURN_START_REMINDERS cautions it calls for; they join the opening message as
 * reminders. An empty prompt, an empty list or a reply of the wrong shape abstains.
 */
export const turnStart: DecisionUse<"turnStart"> = {
  name: "turn_start",
  seam: "turnStart",
  module: "uses/turn-start.ts",
  async decide(input, ctx) {
    if (input.prompt.trim().length === 0) return undefined;
    const answer = await ctx.sidecar.ask(INSTRUCTIONS, input.prompt, Reminders, ctx.signal);
    const reminders = (answer?.reminders ?? [])
      .map((r) => r.trim())
      .filter((r) => r.length > 0 && r.length <= 200)
      .slice(0, MAX_TURN_START_REMINDERS);
    return reminders.length > 0 ? { reminders } : undefined;
  },
  describe: (advice) => `${advice.reminders?.length ?? 0} reminder(s)`,
};
