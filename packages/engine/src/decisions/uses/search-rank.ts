import { lazily } from "@z-engine/protocol";
import { z } from "zod";
import type { DecisionUse } from "../use.js";

/** A search result needs at least this many lines before it is ranked. */
export const RANK_MIN_LINES = 60;
/** Lines of a search result shown to the decision model, at most. */
const SHOWN = 200;

const Keep = lazily(() => z.object({ keep: z.array(z.number().int().positive()).max(80) }));

const INSTRUCTIONS =
  'A coding agent searched the code and got the numbered result lines below. Which lines matter for the task? Reply with JSON only: {"keep": [<line numbers>]}; at most 40, and an empty list when you cannot tell.';

/**
 * search_rank (seam: relevance): a long Grep or Glob result (RANK_MIN_LINES lines or more) is
 * cut to the lines the fast model says matter (the full result goes to an artifact, as with
 * relevance). Picks outside the result, none at all, or more than half of it abstain.
 */
export const searchRank: DecisionUse<"relevance"> = {
  name: "search_rank",
  seam: "relevance",
  module: "uses/search-rank.ts",
  async decide(input, ctx) {
    if (input.toolName !== "Grep" && input.toolName !== "Glob") return undefined;
    const lines = input.text.split("\n");
    if (lines.length < RANK_MIN_LINES) return undefined;
    const numbered = lines.slice(0, SHOWN).map((l, i) => `${i + 1}: ${l.slice(0, 200)}`);
    const question = `Search: ${JSON.stringify(input.input).slice(0, 300)}\n\n${numbered.join("\n")}`;
    const answer = await ctx.sidecar.ask(INSTRUCTIONS, question, Keep, ctx.signal);
    const keep = [...new Set(answer?.keep ?? [])].filter((n) => n <= Math.min(SHOWN, lines.length));
    if (keep.length === 0 || keep.length > lines.length / 2) return undefined;
    keep.sort((a, b) => a - b);
    const ranges: [number, number][] = [];
    for (const n of keep) {
      const last = ranges.at(-1);
      if (last && n === last[1] + 1) last[1] = n;
      else ranges.push([n, n]);
    }
    return { keepLines: ranges };
  },
  describe: (advice) => `${advice.keepLines.length} range(s)`,
};
