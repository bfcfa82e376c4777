import type { DecisionUse } from "../use.js";

/** The same call with the same result this often in a turn is a loop. */
export const LOOP_REPEATS = 3;

/** A short, stable digest of a string (FNV-1a), so the memory keeps no tool output. */
function digest(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(36);
}

/**
 * loop_guard (seam: after a call, no model): the same call with the same result
 * LOOP_REPEATS times in one turn gets a note telling the agent it is going round in circles.
 * It remembers only digests, per turn; once per repeated call and turn.
 */
export const loopGuard: DecisionUse<"afterCall"> = {
  name: "loop_guard",
  seam: "afterCall",
  module: "uses/loop-guard.ts",
  async decide(input, ctx) {
    const turn = ctx.turnId ?? "none";
    if (ctx.memory.get("turn") !== turn) {
      ctx.memory.clear();
      ctx.memory.set("turn", turn);
    }
    const key = `${input.toolName}:${digest(JSON.stringify(input.input) ?? "")}:${digest(input.text)}`;
    const seen = ((ctx.memory.get(key) as number | undefined) ?? 0) + 1;
    ctx.memory.set(key, seen);
    if (seen !== LOOP_REPEATS) return undefined;
    const note = `the same ${input.toolName} call has now given the same result ${LOOP_REPEATS} times in this turn. Repeating it will not change the outcome: try a different approach, or stop and tell the user what blocks you.`;
    return { notes: [note] };
  },
  describe: () => "loop noticed",
};
