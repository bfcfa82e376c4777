import { lazily } from "@z-engine/protocol";
import { z } from "zod";
import type { ClearableResult } from "../seams.js";
import type { DecisionUse } from "../use.js";

/** Results listed to the model per group, at most (the newest first). */
const MAX_LISTED = 60;

const Choice = lazily(() =>
  z.object({
    keep: z.array(z.string()).default([]),
    add: z.array(z.string()).default([]),
  }),
);

const INSTRUCTIONS =
  'A coding agent\'s context is getting full, so some old tool results will be cleared (their text moves to a file the agent can read again). Given the task, name the planned results the agent still needs in view (keep), and the other results it no longer needs (add). Reply with JSON only: {"keep": ["<id>", ...], "add": ["<id>", ...]}; empty lists when unsure.';

const listed = (results: readonly ClearableResult[]) =>
  results
    .slice(-MAX_LISTED)
    .map((r) => `${r.toolUseId} ${r.toolName} ${r.summary} (${r.chars} characters)`)
    .join("\n");

/**
 * pressure_keep (seam: context pressure): the fast model names planned clears to keep and
 * other results to clear too. Only ids of the offered groups count (a planned id to keep, a
 * candidate id to add); nothing named abstains. The seam lets keeping win.
 */
export const pressureKeep: DecisionUse<"contextPressure"> = {
  name: "pressure_keep",
  seam: "contextPressure",
  module: "uses/pressure-keep.ts",
  async decide(input, ctx) {
    if (input.planned.length === 0) return undefined;
    const question = `Task:\n${input.task.slice(0, 1_500)}\n\nPlanned to clear:\n${listed(input.planned)}\n\nNot planned:\n${listed(input.candidates) || "(none)"}`;
    const answer = await ctx.sidecar.ask(INSTRUCTIONS, question, Choice, ctx.signal);
    if (!answer) return undefined;
    const planned = new Set(input.planned.map((r) => r.toolUseId));
    const others = new Set(input.candidates.map((r) => r.toolUseId));
    const keep = [...new Set(answer.keep.filter((id) => planned.has(id)))];
    const add = [...new Set(answer.add.filter((id) => others.has(id)))];
    return keep.length + add.length > 0 ? { keep, add } : undefined;
  },
  describe: (advice) => `keep ${advice.keep.length}, add ${advice.add.length}`,
};
