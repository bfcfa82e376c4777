/**
 * Which variables a command sees. By default it inherits the host's environment minus
 * secrets (names matching {@link DEFAULT_ENV_DENY}), plus a few non-interactive defaults.
 */
export interface EnvPolicy {
  /** Start from the base environment (default true); false starts empty but for PATH and HOME. */
  readonly inherit?: boolean;
  /** Name patterns (`*` matches any run, case-insensitive) removed from the inherited set. */
  readonly deny?: readonly string[];
  /** Names kept even when a deny pattern matches them (exact, case-sensitive). */
  readonly allow?: readonly string[];
  /** Set last, over everything inherited; these are never filtered. */
  readonly set?: Readonly<Record<string, string>>;
}

/** The secret-looking names a command does not inherit unless allowed. */
export const DEFAULT_ENV_DENY: readonly string[] = [
  "*_API_KEY",
  "*_APIKEY",
  "*_TOKEN",
  "*_SECRET",
  "*_SECRET_KEY",
  "*_SECRET_ACCESS_KEY",
  "*_PASSWORD",
  "*_PRIVATE_KEY",
  "*_CLIENT_SECRET",
];

/** Set on every command so pagers and credential prompts never wait for a terminal. */
export const NON_INTERACTIVE_ENV: Readonly<Record<string, string>> = {
  PAGER: "cat",
  GIT_PAGER: "cat",
  GIT_TERMINAL_PROMPT: "0",
  // Tools must not stop to check for their own updates (npm would reach the registry).
  npm_config_update_notifier: "false",
  NO_UPDATE_NOTIFIER: "1",
};

function toRegExp(pattern: string): RegExp {
  const body = pattern
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${body}$`, "i");
}

/**
 * Builds a command's environment from a base (normally `process.env`), the policy and the
 * request's own variables (`undefined` removes one). Pure; never throws.
 */
export function buildEnvironment(
  policy: EnvPolicy,
  base: Readonly<Record<string, string | undefined>>,
  extra: Readonly<Record<string, string | undefined>> = {},
): Record<string, string> {
  const deny = (policy.deny ?? DEFAULT_ENV_DENY).map(toRegExp);
  const allow = new Set(policy.allow ?? []);
  const env: Record<string, string> = {};
  const inherit = policy.inherit ?? true;
  for (const [key, value] of Object.entries(base)) {
    if (value === undefined) continue;
    if (!inherit && key !== "PATH" && key !== "HOME") continue;
    if (!allow.has(key) && deny.some((re) => re.test(key))) continue;
    env[key] = value;
  }
  Object.assign(env, NON_INTERACTIVE_ENV, policy.set ?? {});
  for (const [key, value] of Object.entries(extra)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}
