import { z } from "zod";
import { lazily } from "./lazy.js";

/** Token counts of one response, or summed over many. */
export const TokenUsage = lazily(() =>
  z.object({
    input: z.number().int().nonnegative(),
    output: z.number().int().nonnegative(),
    cacheRead: z.number().int().nonnegative(),
    cacheWrite: z.number().int().nonnegative(),
  }),
);
export type TokenUsage = z.infer<typeof TokenUsage>;

/** Token counts with their price in US dollars. */
export const Usage = lazily(() => TokenUsage.extend({ costUsd: z.number().nonnegative() }));
export type Usage = z.infer<typeof Usage>;

/**
 * What caused a fast-model call, when it was not an agent's own round: a compaction's
 * summary, the session's title, WebFetch's answer, another side-model question, or the
 * decision layer's sidecar. Spend without a source is an agent's main-model rounds.
 */
export const SpendSource = lazily(() =>
  z.enum(["compaction", "title", "webfetch", "side", "decisions"]),
);
export type SpendSource = z.infer<typeof SpendSource>;

/** Zero usage. */
export const emptyUsage = (): Usage => ({
  input: 0,
  output: 0,
  cacheRead: 0,
  cacheWrite: 0,
  costUsd: 0,
});

/** The sum of two usages; neither argument is changed. */
export function addUsage(a: Usage, b: Usage): Usage {
  return {
    input: a.input + b.input,
    output: a.output + b.output,
    cacheRead: a.cacheRead + b.cacheRead,
    cacheWrite: a.cacheWrite + b.cacheWrite,
    costUsd: a.costUsd + b.costUsd,
  };
}
