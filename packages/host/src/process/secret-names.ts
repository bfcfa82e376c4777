import { DEFAULT_ENV_DENY } from "./env-policy.js";

/**
 * The environment variables that hold secrets the engine keeps from every child process,
 * and redacts from what it records and emits. A variable is secret when its name is listed
 * here, matches one of {@link DEFAULT_ENV_DENY}'s patterns (`*_API_KEY`, `*_TOKEN`,
 * `*_SECRET`, `*_PASSWORD`, ...), or is a known provider's prefix followed by a key, token or
 * secret (`AZURE_OPENAI_KEY`).
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

/** Model providers whose `<PREFIX>_..._(KEY|TOKEN|SECRET)` variables hold their keys. */
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

let patterns: { provider: RegExp; deny: RegExp[] } | undefined;

function compiled() {
  patterns ??= {
    provider: new RegExp(
      `^(?:${PROVIDER_PREFIXES.join("|")})_(?:[A-Z0-9_]*_)?(?:KEY|TOKEN|SECRET)$`,
    ),
    deny: DEFAULT_ENV_DENY.map(
      (pattern) =>
        new RegExp(
          `^${pattern
            .split("*")
            .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
            .join(".*")}$`,
          "i",
        ),
    ),
  };
  return patterns;
}

/** Whether the variable `name` holds a secret (see {@link SECRET_VARIABLES}). */
export function isSecretVariable(name: string): boolean {
  const upper = name.toUpperCase();
  const { provider, deny } = compiled();
  return (
    SECRET_VARIABLES.includes(upper) || provider.test(upper) || deny.some((re) => re.test(upper))
  );
}

/**
 * Whether `name` holds a model provider's key (`ANTHROPIC_API_KEY`, `ZENGINE_API_KEY`,
 * `OPENAI_API_KEY`, `AZURE_OPENAI_KEY`, ...): the keys a project-defined entry never gets
 * expanded into its `${VAR}`. Narrower than {@link isSecretVariable} (a `GITHUB_TOKEN` is a
 * secret, but not a provider key).
 */
export function isProviderKeyVariable(name: string): boolean {
  return compiled().provider.test(name.toUpperCase());
}
