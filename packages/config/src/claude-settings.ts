import type { LayerLevel } from "./effective.js";
import { readText, type SettingsLayer, validateSettings } from "./layer-file.js";
import type { SettingsProblem } from "./problems.js";
import { HookEvent, type SettingsFile } from "./schema.js";

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Claude Code's permission mode names to zeng's; `dontAsk` has no equivalent (a notice). */
const MODES: Record<string, string> = {
  default: "ask",
  acceptEdits: "acceptEdits",
  plan: "plan",
  bypassPermissions: "bypass",
};

/** The keys of a Claude Code settings file that zeng reads; any other is named in one notice. */
const USED_KEYS = new Set([
  "$schema",
  "env",
  "hooks",
  "permissions",
  "enabledMcpjsonServers",
  "disabledMcpjsonServers",
  "enableAllProjectMcpServers",
]);

interface Conversion {
  readonly values: Json;
  readonly notes: string[];
}

/** One matcher group `{ matcher, hooks: [{ type: "command", command, timeout }] }` → entries. */
function convertGroup(event: string, group: unknown, notes: string[]): Json[] {
  if (!isObject(group) || !Array.isArray(group.hooks)) {
    notes.push(`hooks.${event}: expected { matcher, hooks: [...] }`);
    return [];
  }
  const matcher = typeof group.matcher === "string" ? group.matcher : undefined;
  const out: Json[] = [];
  for (const hook of group.hooks) {
    if (isObject(hook) && hook.type !== undefined && hook.type !== "command") {
      notes.push(`hooks.${event}: hook type \`${String(hook.type)}\` is not run by zeng`);
      continue;
    }
    if (!isObject(hook) || typeof hook.command !== "string" || hook.command === "") {
      notes.push(`hooks.${event}: a hook without a \`command\` is not run`);
      continue;
    }
    const timeout = typeof hook.timeout === "number" && hook.timeout > 0 ? hook.timeout : undefined;
    out.push({
      ...(matcher !== undefined ? { matcher } : {}),
      command: hook.command,
      ...(timeout !== undefined ? { timeout_secs: timeout } : {}),
    });
  }
  return out;
}

function convertHooks(hooks: unknown, notes: string[]): Json | undefined {
  if (!isObject(hooks)) return undefined;
  const known = new Set<string>(HookEvent.options);
  const out: Json = {};
  for (const [event, groups] of Object.entries(hooks)) {
    if (!known.has(event)) {
      notes.push(`hook event \`${event}\` is not run by zeng`);
      continue;
    }
    if (!Array.isArray(groups)) {
      notes.push(`hooks.${event}: expected a list`);
      continue;
    }
    const entries = groups.flatMap((group) => convertGroup(event, group, notes));
    if (entries.length > 0) out[event] = entries;
  }
  return out;
}

function convertPermissions(p: unknown, notes: string[]): Json | undefined {
  if (!isObject(p)) return undefined;
  const out: Json = {};
  for (const list of ["allow", "ask", "deny"] as const)
    if (p[list] !== undefined) out[list] = p[list];
  if (p.additionalDirectories !== undefined) out.additional_directories = p.additionalDirectories;
  if (typeof p.defaultMode === "string") {
    const mode = MODES[p.defaultMode];
    if (mode) out.mode = mode;
    else notes.push(`permissions.defaultMode \`${p.defaultMode}\` has no zeng equivalent`);
  }
  const other = Object.keys(p).filter(
    (k) => !["allow", "ask", "deny", "additionalDirectories", "defaultMode"].includes(k),
  );
  if (other.length > 0) notes.push(`permissions keys zeng does not use: ${other.join(", ")}`);
  return out;
}

/** Claude Code's `env` as zeng's `[env]`, with a note for each value that cannot be used. */
export interface ClaudeEnv {
  /** Undefined when `env` is missing or not an object. */
  readonly env?: Record<string, string>;
  readonly notes: string[];
}

/**
 * Claude Code's `env` (settings.json, `--settings`) as zeng's `[env]`: strings kept, numbers
 * and booleans as text (Claude Code takes them so); any other value is a note naming the
 * variable and is left out, and an `env` that is not an object is one note. Names are left
 * to the schema (a bad one is a settings problem). Pure; never throws.
 */
export function claudeEnv(value: unknown): ClaudeEnv {
  if (value === undefined) return { notes: [] };
  if (!isObject(value)) return { notes: ["env: expected an object of variables, ignored"] };
  const env: Record<string, string> = {};
  const notes: string[] = [];
  for (const [name, v] of Object.entries(value)) {
    if (typeof v === "string") env[name] = v;
    else if (typeof v === "number" || typeof v === "boolean") env[name] = String(v);
    else notes.push(`env.${name}: expected a string, number or boolean, skipped`);
  }
  return { env, notes };
}

/** A Claude Code settings object to zeng's settings shape, with what could not be used. */
export function convertClaudeSettings(parsed: Json): Conversion {
  const notes: string[] = [];
  const values: Json = {};
  const hooks = convertHooks(parsed.hooks, notes);
  if (hooks && Object.keys(hooks).length > 0) values.hooks = hooks;
  const permissions = convertPermissions(parsed.permissions, notes);
  if (permissions && Object.keys(permissions).length > 0) values.permissions = permissions;
  const { env, notes: envNotes } = claudeEnv(parsed.env);
  notes.push(...envNotes);
  if (env && Object.keys(env).length > 0) values.env = env;
  const unused = Object.keys(parsed).filter((k) => !USED_KEYS.has(k));
  if (unused.length > 0) notes.push(`keys zeng does not use: ${unused.join(", ")}`);
  return { values, notes };
}

/** What a Claude Code settings file says about the project's `.mcp.json` servers. */
export interface McpJsonApproval {
  readonly enabled?: readonly string[];
  readonly disabled: readonly string[];
  readonly enableAll: boolean;
}

function stringArray(value: unknown): string[] | undefined {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : undefined;
}

/** A Claude Code settings file read as a layer, with its `.mcp.json` approvals. */
export interface ClaudeSettingsLayer {
  readonly layer: SettingsLayer;
  readonly approval: McpJsonApproval;
}

/**
 * Reads a Claude Code `settings.json` (`.claude/settings.json`, `.claude/settings.local.json`
 * or `~/.claude/settings.json`) as a settings layer: hooks (every `type: "command"` hook
 * of the events zeng runs, with its matcher and `timeout` in seconds), `permissions.allow/
 * ask/deny/defaultMode/additionalDirectories`, `env` (numbers and booleans as text), and the
 * `.mcp.json` approvals. Whatever
 * zeng does not use is one notice for the file; a file that is not JSON is one problem.
 * Undefined when the file is missing. Never throws.
 */
export function readClaudeSettings(
  file: string,
  level: LayerLevel,
  root: string,
  problems: SettingsProblem[],
): ClaudeSettingsLayer | undefined {
  const source = readText(file, problems);
  if (source === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(source);
  } catch (error) {
    problems.push({ file, message: `not valid JSON, file skipped: ${(error as Error).message}` });
    return undefined;
  }
  if (!isObject(parsed)) {
    problems.push({ file, message: "expected a JSON object, file skipped" });
    return undefined;
  }
  const { values, notes } = convertClaudeSettings(parsed);
  if (notes.length > 0) problems.push({ file, message: notes.join("; ") });
  const validated: SettingsFile = validateSettings(file, source, values, problems, "");
  const enabled = stringArray(parsed.enabledMcpjsonServers);
  const approval: McpJsonApproval = {
    ...(enabled ? { enabled } : {}),
    disabled: stringArray(parsed.disabledMcpjsonServers) ?? [],
    enableAll: parsed.enableAllProjectMcpServers === true,
  };
  return { layer: { level, file, root, values: validated }, approval };
}

/**
 * The `.mcp.json` servers with Claude Code's approvals applied: a server in
 * `disabledMcpjsonServers` is kept with `enabled: false`; when `enabledMcpjsonServers` is
 * given (and `enableAllProjectMcpServers` is not true), a server it does not name is too.
 */
export function applyMcpJsonApproval(
  mcp: SettingsFile,
  approvals: readonly McpJsonApproval[],
): SettingsFile {
  const servers = mcp.mcp?.servers;
  if (!servers || approvals.length === 0) return mcp;
  const disabled = new Set(approvals.flatMap((a) => a.disabled));
  const enableAll = approvals.some((a) => a.enableAll);
  const lists = approvals.flatMap((a) => (a.enabled ? [a.enabled] : []));
  const enabled = lists.length > 0 && !enableAll ? new Set(lists.flat()) : undefined;
  const out: NonNullable<NonNullable<SettingsFile["mcp"]>["servers"]> = {};
  for (const [name, server] of Object.entries(servers)) {
    const off = disabled.has(name) || (enabled !== undefined && !enabled.has(name));
    out[name] = off ? { ...server, enabled: false } : server;
  }
  return { ...mcp, mcp: { ...mcp.mcp, servers: out } };
}
