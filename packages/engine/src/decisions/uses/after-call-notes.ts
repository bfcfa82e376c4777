import { lazily } from "@z-engine/protocol";
import { z } from "zod";
import type { DecisionUse } from "../use.js";

/** Results shorter than this get no note (the model reads them whole anyway). */
export const NOTE_MIN_CHARS = 2_000;

const Note = lazily(() => z.object({ note: z.string().max(300).nullable() }));

const INSTRUCTIONS =
  'Read the output of a coding agent\'s tool call and write one short factual note about what matters in it (e.g. "3 test failures, all in auth/"), or null when nothing stands out. Reply with JSON only: {"note": "<at most 200 characters>" or null}.';

/**
 * after_call_notes (seam: after a call): for a long result, the fast model writes one short
 * note, which joins the next request as a reminder. Short results and failures abstain.
 */
export const afterCallNotes: DecisionUse<"afterCall"> = {
  name: "after_call_notes",
  seam: "afterCall",
  module: "uses/after-call-notes.ts",
  async decide(input, ctx) {
    if (input.text.length < NOTE_MIN_CHARS) return undefined;
    const question = `Tool: ${input.toolName}\n\nOutput (its end):\n${input.text.slice(-6_000)}`;
    const answer = await ctx.sidecar.ask(INSTRUCTIONS, question, Note, ctx.signal);
    const note = answer?.note?.trim();
    return note ? { notes: [note] } : undefined;
  },
  describe: (advice) => `${advice.notes.length} note(s)`,
};
