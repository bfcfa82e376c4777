import { lazily } from "@z-engine/protocol";
import { z } from "zod";
import type { DecisionUse } from "../use.js";

const Rule = lazily(() => z.object({ rule: z.string().max(300).nullable() }));

const INSTRUCTIONS =
  'Does the user\'s message below set a standing rule for all future work in this project (e.g. "always use pnpm", "never touch the generated folder")? If so, restate the rule as one short imperative sentence. Reply with JSON only: {"rule": "<the rule>" | null}.';

/**
 * memory_suggest (seam: turn start): a message that sets a standing rule gets a card
 * offering to save it (`suggested`, kind `memory`); accepting runs `/remember` with the rule,
 * so the Write gate decides as for the command. No rule, or one the message does not share a
 * word with, abstains.
 */
export const memorySuggest: DecisionUse<"turnStart"> = {
  name: "memory_suggest",
  seam: "turnStart",
  module: "uses/memory-suggest.ts",
  async decide(input, ctx) {
    if (input.prompt.trim() === "") return undefined;
    const answer = await ctx.sidecar.ask(
      INSTRUCTIONS,
      input.prompt.slice(0, 3000),
      Rule,
      ctx.signal,
    );
    const rule = answer?.rule?.trim().replace(/\s+/g, " ");
    if (!rule) return undefined;
    const words = new Set(input.prompt.toLowerCase().match(/[a-z0-9]{4,}/g) ?? []);
    if (!(rule.toLowerCase().match(/[a-z0-9]{4,}/g) ?? []).some((w) => words.has(w)))
      return undefined;
    return {
      suggestion: { kind: "memory", text: `Remember for this project: ${rule}`, detail: rule },
    };
  },
  describe: () => "memory card",
};
