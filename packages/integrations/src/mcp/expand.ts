/** Variables for expansion: the engine's environment, passed in (never read from `process.env`). */
export type ExpandEnv = Readonly<Record<string, string | undefined>>;

const PATTERN = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/** The text with `${VAR}` and `${VAR:-default}` expanded, and the names that had no value nor default. */
export interface Expanded {
  readonly text: string;
  readonly missing: readonly string[];
}

/**
 * Expands `${VAR}` and `${VAR:-default}` as Claude Code does in `.mcp.json`: an unset or
 * empty variable takes its default; one with neither is left as written and named in
 * `missing`. Anything else (a lone `$`, `$VAR`) stays as it is. Never throws.
 */
export function expandVars(text: string, env: ExpandEnv): Expanded {
  const missing: string[] = [];
  const out = text.replace(PATTERN, (whole, name: string, fallback: string | undefined) => {
    const value = env[name];
    if (value !== undefined && value !== "") return value;
    if (fallback !== undefined) return fallback;
    missing.push(name);
    return whole;
  });
  return { text: out, missing };
}

/** {@link expandVars} over each value of a map; `missing` gathers every unset name. */
export function expandMap(
  map: Readonly<Record<string, string>> | undefined,
  env: ExpandEnv,
  missing: string[],
): Record<string, string> | undefined {
  if (!map) return undefined;
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(map)) {
    const expanded = expandVars(value, env);
    missing.push(...expanded.missing);
    out[key] = expanded.text;
  }
  return out;
}

/** The text with some `${VAR}` references taken out, and the names taken. */
export interface Withheld {
  readonly text: string;
  readonly removed: readonly string[];
}

/**
 * Replaces every `${VAR}` and `${VAR:-default}` whose name `withhold` picks with the empty
 * string (the default is not used either), before expansion: the engine does this for the
 * model providers' keys in entries a project defined, so a project's `.mcp.json` can never
 * send the key to a program, URL or header of its choosing. Never throws.
 */
export function withoutVariables(text: string, withhold: (name: string) => boolean): Withheld {
  const removed: string[] = [];
  const out = text.replace(PATTERN, (whole, name: string) => {
    if (!withhold(name)) return whole;
    removed.push(name);
    return "";
  });
  return { text: out, removed };
}

/** The names of the `${VAR}` references in `text`, in order, without repeats. */
export function referencedVariables(text: string): string[] {
  return [...new Set([...text.matchAll(PATTERN)].map((m) => m[1] as string))];
}
