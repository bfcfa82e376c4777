import { credentialFeatures, denseRow } from "../classifiers/features.js";
import type { FlaggedValue } from "../seams.js";
import type { DecisionUse } from "../use.js";

/** The credential classifier's score from which a value is flagged. */
export const CREDENTIAL_THRESHOLD = 0.8;
/** Candidates scored per request, at most (the longest first). */
const MAX_CANDIDATES = 256;

/** Tokens long enough to be a credential, with the text before them on their line. */
export function credentialCandidates(text: string): { token: string; context: string }[] {
  const seen = new Set<string>();
  const out: { token: string; context: string }[] = [];
  // `=` only as base64 padding, so `NAME=value` yields the value.
  for (const m of text.matchAll(/[A-Za-z0-9_\-+/.!#$%@]{16,200}={0,2}/g)) {
    const token = m[0].replace(/\.+$/, "");
    if (token.length < 16 || seen.has(token)) continue;
    seen.add(token);
    const lineStart = text.lastIndexOf("\n", m.index) + 1;
    out.push({ token, context: text.slice(Math.max(lineStart, m.index - 32), m.index) });
  }
  return out.sort((a, b) => b.token.length - a.token.length).slice(0, MAX_CANDIDATES);
}

/**
 * screen_request (seam: before a request): the native credential classifier scores the
 * long tokens of new tool results; those at or above CREDENTIAL_THRESHOLD are flagged, so
 * the user is asked once before they are sent. Abstains when the runtime is absent.
 */
export const screenRequest: DecisionUse<"beforeRequest"> = {
  name: "screen_request",
  seam: "beforeRequest",
  module: "uses/screen-request.ts",
  async decide(input, ctx) {
    const candidates = input.results.flatMap((r) => credentialCandidates(r.text));
    if (candidates.length === 0) return undefined;
    const rows = candidates.map((c) => denseRow(credentialFeatures(c.token, c.context)));
    const scores = await ctx.native.score("credential", rows, ctx.signal);
    if (!scores) return undefined;
    const flagged: FlaggedValue[] = [];
    for (const [i, c] of candidates.entries()) {
      const score = scores[i] ?? 0;
      if (score >= CREDENTIAL_THRESHOLD)
        flagged.push({ value: c.token, why: `credential classifier ${score.toFixed(2)}` });
    }
    return flagged.length > 0 ? { flagged } : undefined;
  },
  prepare: (native) => native.prepare("credential"),
  describe: (advice) => `flag ${advice.flagged.length} value(s)`,
};
