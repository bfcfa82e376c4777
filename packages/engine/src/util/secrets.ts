import { DEFAULT_ENV_DENY } from "@z-engine/host";

/**
 * The environment variables that hold secrets the engine keeps from tools and hooks, and
 * redacts from what it records and emits. A variable is secret when its name is listed in
 * SECRET_VARIABLES, matches one of host's `DEFAULT_ENV_DENY` patterns (`*_API_KEY`,
 * `*_TOKEN`, `*_SECRET`, `*_PASSWORD`, ...: the ones the shell already drops), or is a known
 * provider's prefix followed by a key, token or secret (`AZURE_OPENAI_KEY`).
 */
export const SECRET_VARIABLES: readonly string[] = [
  "ZENGINE_API_KEY",
  "ANTHROPIC_API_KEY",
  "ANTHROPIC_AUTH_TOKEN",
  "OPENAI_API_KEY",
  "OPENROUTER_API_KEY",
  "GEMINI_API_KEY",
  "GOOGLE_API_KEY",
  "GROQ_API_KEY",
  "DEEPSEEK_API_KEY",
  "MISTRAL_API_KEY",
  "XAI_API_KEY",
  "AWS_SECRET_ACCESS_KEY",
  "AWS_SESSION_TOKEN",
  "GITHUB_TOKEN",
  "GH_TOKEN",
  "HF_TOKEN",
];

/** Providers whose `<PREFIX>_..._(KEY|TOKEN|SECRET)` variables are secret. */
const PROVIDER_PREFIXES = [
  "ZENGINE",
  "ANTHROPIC",
  "OPENAI",
  "AZURE_OPENAI",
  "OPENROUTER",
  "GEMINI",
  "GOOGLE",
  "GROQ",
  "DEEPSEEK",
  "MISTRAL",
  "XAI",
  "COHERE",
  "TOGETHER",
  "FIREWORKS",
  "PERPLEXITY",
  "HUGGINGFACE",
  "HF",
];
const PROVIDER_SECRET = new RegExp(
  `^(?:${PROVIDER_PREFIXES.join("|")})_(?:[A-Z0-9_]*_)?(?:KEY|TOKEN|SECRET)$`,
);

const DENY_PATTERNS = DEFAULT_ENV_DENY.map(
  (pattern) =>
    new RegExp(
      `^${pattern
        .split("*")
        .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
        .join(".*")}$`,
      "i",
    ),
);

/** Whether the variable `name` holds a secret (see {@link SECRET_VARIABLES}). */
export function isSecretVariable(name: string): boolean {
  const upper = name.toUpperCase();
  return (
    SECRET_VARIABLES.includes(upper) ||
    PROVIDER_SECRET.test(upper) ||
    DENY_PATTERNS.some((re) => re.test(upper))
  );
}

/**
 * The environment shells, background jobs, checks and hook processes get: `env` without any
 * secret variable. One function, so that every child process of the engine sees the same.
 */
export function scrubbedEnvironment(
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env))
    if (value !== undefined && !isSecretVariable(name)) out[name] = value;
  return out;
}

/** Values shorter than this are not redacted (they would mangle ordinary text). */
const MIN_SECRET_LENGTH = 8;

/** The secret values of `env`, longest first, to redact. */
export function secretValues(env: Readonly<Record<string, string | undefined>>): string[] {
  const values = new Set<string>();
  for (const [name, value] of Object.entries(env))
    if (value !== undefined && value.length >= MIN_SECRET_LENGTH && isSecretVariable(name))
      values.add(value);
  return [...values].sort((a, b) => b.length - a.length);
}

/** The text a redacted secret becomes. */
export const REDACTED = "[redacted]";

/** Replaces known secret values in text and in JSON-like values. */
export interface Redactor {
  /** `text` with every known secret replaced by `[redacted]`. */
  text(text: string): string;
  /** A copy of `value` with every string redacted; the same object when nothing changed. */
  value<T>(value: T): T;
}

/** A redactor for `secrets` (values shorter than 8 characters are ignored). */
export function createRedactor(secrets: readonly string[]): Redactor {
  const list = secrets.filter((s) => s.length >= MIN_SECRET_LENGTH);
  const text = (input: string): string => {
    let out = input;
    for (const secret of list) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    return out;
  };
  const walk = (value: unknown): unknown => {
    if (typeof value === "string") return text(value);
    if (Array.isArray(value)) {
      let changed = false;
      const next = value.map((item) => {
        const r = walk(item);
        if (r !== item) changed = true;
        return r;
      });
      return changed ? next : value;
    }
    if (value !== null && typeof value === "object") {
      let changed = false;
      const next: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) {
        const r = walk(v);
        if (r !== v) changed = true;
        next[k] = r;
      }
      return changed ? next : value;
    }
    return value;
  };
  return {
    text: list.length === 0 ? (t) => t : text,
    value: <T>(value: T): T => (list.length === 0 ? value : (walk(value) as T)),
  };
}
