/**
 * Known credential formats, matched deterministically (no model): provider API keys,
 * access tokens, cloud keys, private key blocks and JWTs. Each pattern is anchored on a
 * distinctive prefix, so ordinary text (commit hashes, UUIDs, identifiers) does not match.
 */
export const KEY_FORMATS: readonly {
  readonly name: string;
  readonly pattern: RegExp;
}[] = [
  { name: "Anthropic key", pattern: /\bsk-ant-[A-Za-z0-9_-]{20,}/g },
  { name: "OpenAI key", pattern: /\bsk-(?:proj-|svcacct-)?[A-Za-z0-9_-]{32,}/g },
  {
    name: "GitHub token",

    pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})/g,
  },
  { name: "AWS access key id", pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g },
  { name: "Slack token", pattern: /\bxox[abprs]-[A-Za-z0-9-]{10,}/g },
  { name: "GitLab token", pattern: /\bglpat-[A-Za-z0-9_-]{20,}/g },
  { name: "Google API key", pattern: /\bAIza[0-9A-Za-z_-]{35}/g },
  { name: "Stripe key", pattern: /\b(?:sk|rk)_live_[0-9A-Za-z]{24,}/g },
  { name: "Hugging Face token", pattern: /\bhf_[A-Za-z0-9]{30,}/g },
  { name: "npm token", pattern: /\bnpm_[A-Za-z0-9]{36}\b/g },
  {
    name: "private key",

    pattern:
      /-----BEGIN (?:[A-Z]+ )*PRIVATE KEY-----[\s\S]*?-----END (?:[A-Z]+ )*PRIVATE KEY-----/g,
  },
  {
    name: "JWT",

    pattern: /\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/g,
  },
];

/** Every format in one pattern, one capture group each: a text is scanned once. */
const COMBINED = new RegExp(KEY_FORMATS.map((f) => `(${f.pattern.source})`).join("|"), "g");

/** The known-format credentials in `text`, each value once, in order of first appearance. */
export function findKnownKeys(text: string): { value: string; format: string }[] {
  const found = new Map<string, string>();
  for (const m of text.matchAll(COMBINED)) {
    if (found.has(m[0])) continue;
    const group = m.findIndex((g, i) => i > 0 && g !== undefined);
    found.set(m[0], KEY_FORMATS[group - 1]?.name ?? "key");
  }
  return [...found].map(([value, format]) => ({ value, format }));
}
