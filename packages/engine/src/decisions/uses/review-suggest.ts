import { lazily } from "@z-engine/protocol";
import { z } from "zod";
import type { DecisionUse } from "../use.js";

const Review = lazily(() => z.object({ review: z.boolean() }));

/** Paths whose change always merits a review card, without asking the model. */
const SENSITIVE =
  /(^|\/)(auth|security|crypto|migrations?|\.github\/workflows|Dockerfile)|\.(sql|tf)$/i;

const INSTRUCTIONS =
  'A coding agent finished a turn that changed the files below. Would a careful review of these changes be worth the user\'s time (risky logic, security, data, many files)? Reply with JSON only: {"review": true | false}.';

/**
 * review_suggest (seam: turn end, in the background): after a turn that changed files, a card
 * offering a review turn of them (`suggested`, kind `review`); accepting queues the review
 * prompt as the user's next turn. Path rules first (auth, security, migrations, CI files),
 * the fast model only for the others. After a dismissal no review card comes again in the chat.
 */
export const reviewSuggest: DecisionUse<"turnEnd"> = {
  name: "review_suggest",
  seam: "turnEnd",
  module: "uses/review-suggest.ts",
  async decide(input, ctx) {
    const paths = input.changedPaths.slice(0, 50);
    if (paths.length === 0) return undefined;
    const byRule = paths.some((p) => SENSITIVE.test(p));
    if (!byRule) {
      const question = `Changed files:\n${paths.join("\n")}\n\nRequest:\n${input.prompt.slice(0, 1500)}`;
      const answer = await ctx.sidecar.ask(INSTRUCTIONS, question, Review, ctx.signal);
      if (!answer?.review) return undefined;
    }
    const names = paths.slice(0, 5).join(", ") + (paths.length > 5 ? ", ..." : "");
    return {
      suggestion: {
        kind: "review",
        text: `Review the changes to ${names}?`,
        detail: `Review the changes made in the last turn to these files, and report problems without editing: ${paths.join(", ")}`,
      },
    };
  },
  describe: () => "review card",
};
