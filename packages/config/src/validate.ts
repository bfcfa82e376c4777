import { z } from "zod";

/** Called once for each key skipped: its path and the reason. */
export type ReportFn = (path: readonly string[], message: string) => void;

/** The outcome of lenient validation: the value with the bad parts removed, or nothing. */
export type Lenient = { ok: true; value: unknown } | { ok: false };

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema;
  while (current instanceof z.ZodOptional) current = current.unwrap() as z.ZodType;
  return current;
}

function reportIssues(error: z.ZodError, path: readonly string[], report: ReportFn): void {
  for (const issue of error.issues) {
    report([...path, ...issue.path.map(String)], issue.message);
  }
}

function whole(schema: z.ZodType, value: unknown, path: readonly string[], report: ReportFn) {
  const parsed = schema.safeParse(value);
  if (parsed.success) return { ok: true, value: parsed.data } as const;
  reportIssues(parsed.error, path, report);
  return { ok: false } as const;
}

function objectPart(
  schema: z.ZodObject,
  value: Record<string, unknown>,
  path: readonly string[],
  report: ReportFn,
): Lenient {
  const shape = schema.shape as Record<string, z.ZodType>;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    const field = shape[key];
    if (!field) {
      report([...path, key], `unknown key \`${key}\``);
      continue;
    }
    const result = validateLeniently(field, child, [...path, key], report);
    if (result.ok) out[key] = result.value;
  }
  // The whole object once more, for refinements and required keys.
  return whole(schema, out, path, report);
}

function recordPart(
  schema: z.ZodRecord,
  value: Record<string, unknown>,
  path: readonly string[],
  report: ReportFn,
): Lenient {
  const out: Record<string, unknown> = {};
  const keyType = schema.keyType as z.ZodType;
  const valueType = schema.valueType as z.ZodType;
  for (const [key, child] of Object.entries(value)) {
    const name = keyType.safeParse(key);
    if (!name.success) {
      const why = name.error.issues[0]?.message;
      report([...path, key], `invalid name \`${key}\`${why ? ` (${why})` : ""}`);
      continue;
    }
    const result = validateLeniently(valueType, child, [...path, key], report);
    if (result.ok) out[key] = result.value;
  }
  return { ok: true, value: out };
}

function arrayPart(
  schema: z.ZodArray,
  value: unknown[],
  path: readonly string[],
  report: ReportFn,
): Lenient {
  const element = schema.element as z.ZodType;
  const out: unknown[] = [];
  value.forEach((item, index) => {
    const result = validateLeniently(element, item, [...path, String(index)], report);
    if (result.ok) out.push(result.value);
  });
  return whole(schema, out, path, report);
}

/**
 * Validates `value` against `schema` keeping every part that is valid: an unknown key, a
 * key of the wrong type, or a bad array element is reported through `report` and left out,
 * and the rest stays. Objects are checked key by key and then whole (refinements, required
 * keys); an object that still fails is dropped whole. Never throws.
 */
export function validateLeniently(
  schema: z.ZodType,
  value: unknown,
  path: readonly string[],
  report: ReportFn,
): Lenient {
  const inner = unwrap(schema);
  if (inner instanceof z.ZodObject && isPlainObject(value)) {
    return objectPart(inner, value, path, report);
  }
  if (inner instanceof z.ZodRecord && isPlainObject(value)) {
    return recordPart(inner, value, path, report);
  }
  if (inner instanceof z.ZodArray && Array.isArray(value)) {
    return arrayPart(inner, value, path, report);
  }
  return whole(inner, value, path, report);
}
