import type { Action } from "@z-engine/policy";
import { denseRow, riskyCallFeatures } from "../classifiers/features.js";
import type { DecisionUse } from "../use.js";

/** The risky-call classifier's score from which an allowed call is asked instead. */
export const RISKY_THRESHOLD = 0.7;

/** A call's actions as the classifier's texts (`Bash: rm -rf src`), one per command or write. */
export function callTexts(toolName: string, actions: readonly Action[]): string[] {
  const texts: string[] = [];
  for (const a of actions) {
    if (a.kind === "command") texts.push(`Bash: ${a.command.source}`);
    else if (a.kind === "write") for (const p of a.paths) texts.push(`${toolName}: ${p}`);
  }
  return texts;
}

/**
 * review_call (seam: tool gate): the native risky-call classifier scores the commands and
 * writes of a call the policy allowed; one at or above RISKY_THRESHOLD makes it an Ask (the
 * gate applies that only to an Allow, with no rule to suggest). Abstains otherwise.
 */
export const reviewCall: DecisionUse<"toolGate"> = {
  name: "review_call",
  seam: "toolGate",
  module: "uses/review-call.ts",
  async decide(input, ctx) {
    const texts = callTexts(input.toolName, input.actions);
    if (texts.length === 0) return undefined;
    const scores = await ctx.native.score(
      "riskyCall",
      texts.map((t) => denseRow(riskyCallFeatures(t))),
      ctx.signal,
    );
    if (!scores) return undefined;
    const worst = Math.max(...scores);
    if (worst < RISKY_THRESHOLD) return undefined;
    return {
      askReason: `a classifier marks this call as risky (${worst.toFixed(2)}); please confirm`,
    };
  },
  prepare: (native) => native.prepare("riskyCall"),
  describe: (advice) => `ask: ${advice.askReason}`,
};
