/**
 * Known credential formats, matched deterministically (no model): provider API keys,
 * access tokens, cloud keys, private key blocks and JWTs. Each pattern is anchored on a
 * distinctive prefix, so ordinary text (commit hashes, UUIDs, identifiers) does not match.
 */
export const KEY_FORMATS: readonly {
  readonly name: string;
  /** A literal every match contains: texts without it skip the pattern. */
  readonly hint: string;
  readonly pattern: RegExp;
}[] = [
  { name: "Anthropic key", hint: "sk-ant-", pattern: /\bsk-ant-[A-Za-z0-9_-]{20,}/g },
  { name: "OpenAI key", hint: "sk-", pattern: /\bsk-(?:proj-|svcacct-)?[A-Za-z0-9_-]{32,}/g },
  {
    name: "GitHub token",
    hint: "_",
    pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})/g,
  },
  { name: "AWS access key id", hint: "IA", pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g },
  { name: "Slack token", hint: "xox", pattern: /\bxox[abprs]-[A-Za-z0-9-]{10,}/g },
  { name: "GitLab token", hint: "glpat-", pattern: /\bglpat-[A-Za-z0-9_-]{20,}/g },
  { name: "Google API key", hint: "AIza", pattern: /\bAIza[0-9A-Za-z_-]{35}/g },
  { name: "Stripe key", hint: "_live_", pattern: /\b(?:sk|rk)_live_[0-9A-Za-z]{24,}/g },
  { name: "Hugging Face token", hint: "hf_", pattern: /\bhf_[A-Za-z0-9]{30,}/g },
  { name: "npm token", hint: "npm_", pattern: /\bnpm_[A-Za-z0-9]{36}\b/g },
  {
    name: "private key",
    hint: "PRIVATE KEY",
    pattern:
      /-----BEGIN (?:[A-Z]+ )*PRIVATE KEY-----[\s\S]*?-----END (?:[A-Z]+ )*PRIVATE KEY-----/g,
  },
  {
    name: "JWT",
    hint: "eyJ",
    pattern: /\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/g,
  },
];

/** The known-format credentials in `text`, each value once, in order of first appearance. */
export function findKnownKeys(text: string): { value: string; format: string }[] {
  const found = new Map<string, string>();
  for (const { name, hint, pattern } of KEY_FORMATS) {
    if (!text.includes(hint)) continue;
    for (const m of text.matchAll(pattern)) if (!found.has(m[0])) found.set(m[0], name);
  }
  const order = (v: string) => text.indexOf(v);
  return [...found]
    .map(([value, format]) => ({ value, format }))
    .sort((a, b) => order(a.value) - order(b.value));
}
