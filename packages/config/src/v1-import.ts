import { z } from "zod";
import { SECTION_NAMES, Sections } from "./schema.js";

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date)
  );
}

function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema;
  while (current instanceof z.ZodOptional) current = current.unwrap() as z.ZodType;
  return current;
}

const byLengthDesc = (a: string, b: string) => b.length - a.length;
const SECTIONS_LONGEST_FIRST = [...SECTION_NAMES].sort(byLengthDesc);

/** Where `rest` (the part of a flat name after its table's name) lands inside `schema`. */
function placeIn(schema: z.ZodType, rest: string): string[] | undefined {
  const inner = unwrap(schema);
  if (inner instanceof z.ZodRecord) return [rest];
  if (!(inner instanceof z.ZodObject)) return undefined;
  const fields = Object.keys(inner.shape).sort(byLengthDesc);
  if (fields.includes(rest)) return [rest];
  for (const field of fields) {
    if (!rest.startsWith(`${field}_`)) continue;
    const below = placeIn(inner.shape[field] as z.ZodType, rest.slice(field.length + 1));
    if (below) return [field, ...below];
  }
  return undefined;
}

/**
 * Maps one v1 flat name to its v2 key path: `model_main` → `model.main`,
 * `shell_sandbox_enabled` → `shell.sandbox.enabled`, `mcp_servers` → `mcp.servers`,
 * `hooks_PreToolUse` → `hooks.PreToolUse`. A bare section name (`pricing`) maps to itself.
 * Undefined for a name that matches no setting.
 */
export function v1KeyPath(flat: string): string[] | undefined {
  for (const section of SECTIONS_LONGEST_FIRST) {
    if (flat === section) return [section];
    if (!flat.startsWith(`${section}_`)) continue;
    const below = placeIn(Sections[section], flat.slice(section.length + 1));
    if (below) return [section, ...below];
  }
  return undefined;
}

function setPath(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let node = target;
  for (const part of path.slice(0, -1)) {
    const next = node[part];
    if (isPlainObject(next)) node = next;
    else {
      const created: Record<string, unknown> = {};
      node[part] = created;
      node = created;
    }
  }
  const last = path[path.length - 1] as string;
  const existing = node[last];
  node[last] = isPlainObject(existing) && isPlainObject(value) ? { ...existing, ...value } : value;
}

/**
 * Converts a parsed v1 config.toml (flat `section_key` names at the top level) into the v2
 * nested shape, unvalidated. A name that matches no setting is reported and left out.
 */
export function convertV1(
  flat: Record<string, unknown>,
  report: (path: readonly string[], message: string) => void,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(flat)) {
    const path = v1KeyPath(name);
    if (path) setPath(out, path, value);
    else report([name], `unknown v1 setting \`${name}\``);
  }
  return out;
}
