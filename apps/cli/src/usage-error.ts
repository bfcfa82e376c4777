// The parser's error and how its messages show values. Imports nothing (start-up).
import type { FlagName } from "./flag-table.js";

/** Bad usage: one line, exit 2. */
export class UsageError extends Error {
  readonly code = "usage";
}

/** A value as an error shows it: quoted, control characters escaped, at most 60 characters. */
export function quote(value: string): string {
  const short = value.length > 60 ? `${value.slice(0, 57)}...` : value;
  return JSON.stringify(short);
}

/** How a flag is named in errors. */
export function shown(name: FlagName): string {
  return name === "print" ? "-p" : `--${name}`;
}

/** `value` if it is one of `allowed`; else a usage error naming them. */
export function oneOf<T extends string>(name: string, value: string, allowed: readonly T[]): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`${name} must be one of ${allowed.join(", ")} (got ${quote(value)})`);
}
