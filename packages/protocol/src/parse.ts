import type { z } from "zod";

/** Where a value failed to parse and why, e.g. `{ path: "event.turnId", message: "expected string, received number" }`. */
export interface ParseError {
  /** Dotted path into the value (`messages[2].content[0].text`); empty for the value itself. */
  readonly path: string;
  readonly message: string;
}

/** The result of every `parse*` function: a typed value or the first problem found, never a throw. */
export type ParseResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: ParseError };

type Segment = PropertyKey;

function formatPath(path: readonly Segment[]): string {
  let out = "";
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`;
    else out += out === "" ? String(segment) : `.${String(segment)}`;
  }
  return out;
}

function valueAt(input: unknown, path: readonly Segment[]): unknown {
  let current: unknown = input;
  for (const segment of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<PropertyKey, unknown>)[segment];
  }
  return current;
}

function describeIssue(issue: z.core.$ZodIssue, input: unknown): ParseError {
  const path = [...issue.path];
  if (issue.code === "invalid_union" && "discriminator" in issue && issue.discriminator) {
    const key = String(issue.discriminator);
    const at = path.length > 0 && path[path.length - 1] === key ? path : [...path, key];
    const value = valueAt(input, at);
    const message =
      value === undefined ? `missing "${key}"` : `unknown ${key} ${JSON.stringify(value)}`;
    return { path: formatPath(at), message };
  }
  if (issue.code === "unrecognized_keys") {
    return { path: formatPath(path), message: `unknown field(s): ${issue.keys.join(", ")}` };
  }
  if (issue.code === "invalid_type" && valueAt(input, path) === undefined) {
    return { path: formatPath(path), message: `missing field (expected ${issue.expected})` };
  }
  const message = issue.message.replace(/^Invalid input: /, "");
  return { path: formatPath(path), message };
}

/**
 * Parses `input` with a zod schema and turns the first issue into a {@link ParseError} that
 * names the exact path. Never throws.
 */
export function parseWith<T>(schema: z.ZodType<T>, input: unknown): ParseResult<T> {
  const result = schema.safeParse(input);
  if (result.success) return { ok: true, value: result.data };
  const issue = result.error.issues[0];
  if (issue === undefined) return { ok: false, error: { path: "", message: "invalid value" } };
  return { ok: false, error: describeIssue(issue, input) };
}

/** Parses JSON text, then the value; a syntax error is reported with an empty path. Never throws. */
export function parseJsonWith<T>(schema: z.ZodType<T>, text: string): ParseResult<T> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      error: { path: "", message: `malformed JSON: ${(error as Error).message}` },
    };
  }
  return parseWith(schema, value);
}
