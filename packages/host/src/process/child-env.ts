import { delimiter, isAbsolute, relative, resolve } from "node:path";
import { isSecretVariable } from "./secret-names.js";

declare const scrubbed: unique symbol;

/**
 * An environment with every secret variable taken out: the only kind {@link spawnChild}
 * starts a child from. Made by {@link childEnvironment} alone (the brand cannot be written
 * outside this module), so a caller cannot hand a child the engine's own environment.
 */
export interface ChildEnvironment {
  readonly [scrubbed]: true;
  readonly vars: Readonly<Record<string, string>>;
}

/** Options for {@link childEnvironment}. */
export interface ChildEnvironmentOptions {
  /**
   * Secret-looking names that are kept all the same (exact, case-sensitive): the user's own
   * exceptions (`shell.env.allow`, say `GITHUB_TOKEN` for `gh`).
   */
  readonly allow?: readonly string[];
  /**
   * Folders the child must not find programs or modules in (an untrusted project): entries
   * of PATH-like lists inside them, and relative entries (they resolve in the child's
   * working folder), are dropped.
   */
  readonly exclude?: readonly string[];
}

/** Variables that list folders a program or module is looked up in. */
const LOOKUP_LISTS = [
  "PATH",
  "NODE_PATH",
  "PYTHONPATH",
  "PERL5LIB",
  "PERLLIB",
  "RUBYLIB",
  "GEM_PATH",
  "CLASSPATH",
  "LD_LIBRARY_PATH",
];

function inside(path: string, folder: string): boolean {
  const rel = relative(folder, path);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

function lookupList(value: string, exclude: readonly string[]): string {
  return value
    .split(delimiter)
    .filter((entry) => {
      if (entry === "" || !isAbsolute(entry)) return false;
      const full = resolve(entry);
      return !exclude.some((folder) => inside(full, folder));
    })
    .join(delimiter);
}

/**
 * `base` without its secret variables (`isSecretVariable`: provider keys, `*_TOKEN`,
 * `*_PASSWORD`, ...) unless `allow` names them, and without `PWD`/`OLDPWD` (the spawner sets
 * `PWD` to the child's folder). With `exclude`, PATH-like lists lose their relative entries
 * and those inside the excluded folders. Pure; never throws.
 */
export function childEnvironment(
  base: Readonly<Record<string, string | undefined>>,
  options: ChildEnvironmentOptions = {},
): ChildEnvironment {
  const allow = new Set(options.allow ?? []);
  const exclude = (options.exclude ?? []).map((folder) => resolve(folder));
  const vars: Record<string, string> = {};
  for (const [name, value] of Object.entries(base)) {
    if (value === undefined || name === "PWD" || name === "OLDPWD") continue;
    if (!allow.has(name) && isSecretVariable(name)) continue;
    vars[name] =
      exclude.length > 0 && LOOKUP_LISTS.includes(name) ? lookupList(value, exclude) : value;
  }
  return { vars } as ChildEnvironment;
}

/**
 * The variables a child gets: the scrubbed environment, then `extra` over it (a value of
 * `undefined` removes one; extra values are the caller's own and are not filtered), then
 * `PWD` set to the child's folder. Pure.
 */
export function childVariables(
  env: ChildEnvironment,
  extra: Readonly<Record<string, string | undefined>> | undefined,
  cwd: string,
): Record<string, string> {
  const vars: Record<string, string> = { ...env.vars };
  for (const [name, value] of Object.entries(extra ?? {})) {
    if (value === undefined) delete vars[name];
    else vars[name] = value;
  }
  vars.PWD = cwd;
  return vars;
}
