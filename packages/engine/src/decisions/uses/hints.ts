import { lazily } from "@z-engine/protocol";
import { z } from "zod";
import type { DecisionUse } from "../use.js";

/** Skills offered to the model at most (those sharing the most words with the request). */
const CANDIDATES = 6;
/** Hints given at most per turn. */
const MAX_HINTS = 2;

const Picks = lazily(() => z.object({ fits: z.array(z.string()).max(10) }));

const INSTRUCTIONS =
  'A coding agent has the skills listed below. Which of them clearly fit the user\'s request? Reply with JSON only: {"fits": ["<skill name>", ...]}; an empty list when none clearly fits.';

const words = (text: string) => new Set(text.toLowerCase().match(/[a-z0-9]{4,}/g) ?? []);

/**
 * hints (seam: turn start): among the six skills sharing the most words with the request,
 * up to two the fast model says clearly fit become a reminder naming them; each skill is
 * hinted once per chat. A hint is information only: loading a skill still goes through the
 * Skill tool and its rules.
 */
export const hints: DecisionUse<"turnStart"> = {
  name: "hints",
  seam: "turnStart",
  module: "uses/hints.ts",
  async decide(input, ctx) {
    const asked = words(input.prompt);
    const scored = input.skills
      .filter((s) => !ctx.memory.has(s.name))
      .map((s) => ({
        s,
        n: [...words(`${s.name} ${s.description}`)].filter((w) => asked.has(w)).length,
      }))
      .filter((x) => x.n > 0)
      .sort((a, b) => b.n - a.n)
      .slice(0, CANDIDATES)
      .map((x) => x.s);
    if (scored.length === 0) return undefined;
    const list = scored.map((s) => `- ${s.name}: ${s.description.slice(0, 200)}`).join("\n");
    const question = `Skills:\n${list}\n\nRequest:\n${input.prompt.slice(0, 2000)}`;
    const answer = await ctx.sidecar.ask(INSTRUCTIONS, question, Picks, ctx.signal);
    const names = new Set(scored.map((s) => s.name));
    const fits = [...new Set(answer?.fits ?? [])].filter((f) => names.has(f)).slice(0, MAX_HINTS);
    if (fits.length === 0) return undefined;
    for (const f of fits) ctx.memory.set(f, true);
    return {
      reminders: [
        `Skills that may fit this request: ${fits.join(", ")} (load one with the Skill tool if it helps).`,
      ],
    };
  },
  describe: (advice) => `${advice.reminders?.length ?? 0} hint(s)`,
};
