// `--settings`: a Claude Code settings object (settings.json's keys) as zeng settings.
import { resolve } from "node:path";
import { claudeEnv } from "@z-engine/config";
import { PERMISSION_MODES } from "@z-engine/protocol";
import { MODE_ALIASES } from "./args.js";

const ZENG_MODES = new Set<string>(PERMISSION_MODES);

/** Claude Code's keys zeng reads elsewhere or has no use for in `--settings`: one notice each. */
function unused(key: string, problems: string[]): void {
  problems.push(`--settings: \`${key}\` is not used by zeng and was ignored`);
}

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];

function permissionsOf(value: unknown, cwd: string, problems: string[]) {
  if (typeof value !== "object" || value === null) return {};
  const p = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(p)) {
    if (key === "allow" || key === "deny" || key === "ask") out[key] = strings(v);
    else if (key === "additionalDirectories")
      out.additional_directories = strings(v).map((d) => resolve(cwd, d));
    else if (key === "defaultMode" && typeof v === "string") {
      const mode = MODE_ALIASES[v] ?? (ZENG_MODES.has(v) ? v : undefined);
      if (mode) out.mode = mode;
      else problems.push(`--settings: permissions.defaultMode ${JSON.stringify(v)} is not a mode`);
    } else unused(`permissions.${key}`, problems);
  }
  return out;
}

/**
 * Maps Claude Code's settings keys onto zeng's: `permissions` (allow, ask, deny,
 * additionalDirectories, defaultMode), `model` and `env` (numbers and booleans as text).
 * Keys that are zeng's own sections (snake case, as in settings.toml) pass through to be
 * validated like a file; any other key is a notice. Never throws.
 */
export function claudeSettings(
  input: Record<string, unknown>,
  cwd: string,
  problems: string[],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    if (key === "$schema") continue;
    if (key === "permissions") out.permissions = permissionsOf(value, cwd, problems);
    else if (key === "model" && typeof value === "string") out.model = { main: value };
    else if (key === "env") {
      const converted = claudeEnv(value);
      if (converted.env) out.env = converted.env;
      for (const note of converted.notes) problems.push(`--settings: ${note}`);
    } else if (/^[a-z_]+$/.test(key) && typeof value === "object" && value !== null)
      out[key] = value;
    else unused(key, problems);
  }
  return out;
}
