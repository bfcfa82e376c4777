// What `claude -p`'s flags ask of the engine: a host settings layer, session overrides, a
// JSON Schema. Reads the files they name; a file or JSON text that cannot be used is bad usage.
import { readFile } from "node:fs/promises";
import { isAbsolute, resolve } from "node:path";
import { type McpServer, parseMcpJson, type SettingsProblem } from "@z-engine/config";
import type { JsonSchemaObject, SessionOverrides } from "@z-engine/engine";
import type { HeadlessArgs } from "./args.js";
import type { TextSource } from "./args-dialect.js";
import { claudeSettings } from "./claude-settings.js";

/** A flag's file or JSON text that cannot be used (exit 2). */
export class DialectError extends Error {
  readonly code = "usage";
}

/** What the flags add to a headless run. */
export interface DialectSetup {
  /** The host settings layer (permission rules, folders, fallbacks, MCP servers). */
  readonly settings?: Record<string, unknown>;
  readonly overrides: SessionOverrides;
  readonly schema?: JsonSchemaObject;
  /** Problems to report as notices (keys zeng does not use, bad MCP entries). */
  readonly problems: readonly string[];
}

async function readFlagFile(flag: string, file: string, cwd: string): Promise<string> {
  try {
    return await readFile(isAbsolute(file) ? file : resolve(cwd, file), "utf8");
  } catch (error) {
    throw new DialectError(
      `${flag} ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
}

/** A flag value that is JSON text (starts with `{`) or names a file of JSON. */
async function jsonOrFile(flag: string, value: string, cwd: string) {
  const inline = value.trimStart().startsWith("{");
  const text = inline ? value : await readFlagFile(flag, value, cwd);
  return { label: inline ? `${flag} JSON` : value, text };
}

function parseObject(flag: string, label: string, text: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new DialectError(`${flag} ${label}: not valid JSON: ${(error as Error).message}`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    throw new DialectError(`${flag} ${label}: expected a JSON object`);
  return parsed as Record<string, unknown>;
}

async function text(flag: string, source: TextSource | undefined, cwd: string) {
  if (source === undefined) return undefined;
  return "text" in source ? source.text : readFlagFile(flag, source.file, cwd);
}

async function mcpServers(configs: readonly string[], cwd: string, problems: string[]) {
  const servers: Record<string, McpServer> = {};
  const found: SettingsProblem[] = [];
  for (const config of configs) {
    const { label, text: source } = await jsonOrFile("--mcp-config", config, cwd);
    parseObject("--mcp-config", label, source);
    Object.assign(servers, parseMcpJson(label, source, found).mcp?.servers ?? {});
  }
  for (const p of found) problems.push(`${p.file}${p.key ? ` (${p.key})` : ""}: ${p.message}`);
  return servers;
}

function listsOf(args: HeadlessArgs, cwd: string) {
  return {
    allow: args.allowedTools ?? [],
    deny: args.disallowedTools ?? [],
    dirs: (args.addDirs ?? []).map((d) => resolve(cwd, d)),
  };
}

/** Everything the dialect flags of `args` ask for; `cwd` resolves relative paths. Throws DialectError. */
export async function dialectSetup(args: HeadlessArgs, cwd: string): Promise<DialectSetup> {
  const problems: string[] = [];
  const fromFile = args.settings
    ? await jsonOrFile("--settings", args.settings, cwd).then(({ label, text: t }) =>
        claudeSettings(parseObject("--settings", label, t), cwd, problems),
      )
    : {};
  const { allow, deny, dirs } = listsOf(args, cwd);
  const permissions = (fromFile.permissions ?? {}) as Record<string, string[] | string>;
  const servers = args.mcpConfigs ? await mcpServers(args.mcpConfigs, cwd, problems) : undefined;
  const settings: Record<string, unknown> = {
    ...fromFile,
    permissions: {
      ...permissions,
      allow: [...((permissions.allow as string[]) ?? []), ...allow],
      deny: [...((permissions.deny as string[]) ?? []), ...deny],
      additional_directories: [
        ...((permissions.additional_directories as string[]) ?? []),
        ...dirs,
      ],
    },
    ...(args.fallbackModel
      ? { model: { ...(fromFile.model as object), fallbacks: [args.fallbackModel] } }
      : {}),
    ...(servers && !args.strictMcpConfig ? { mcp: { servers } } : {}),
  };
  const systemPrompt = await text("--system-prompt-file", args.systemPrompt, cwd);
  const appendSystemPrompt = await text(
    "--append-system-prompt-file",
    args.appendSystemPrompt,
    cwd,
  );
  const overrides: SessionOverrides = {
    ...(systemPrompt === undefined ? {} : { systemPrompt }),
    ...(appendSystemPrompt === undefined ? {} : { appendSystemPrompt }),
    ...(args.maxBudgetUsd === undefined ? {} : { maxBudgetUsd: args.maxBudgetUsd }),
    ...(servers && args.strictMcpConfig ? { mcpServers: servers } : {}),
  };
  const schema = args.jsonSchema
    ? await jsonOrFile("--json-schema", args.jsonSchema, cwd).then(({ label, text: t }) =>
        parseObject("--json-schema", label, t),
      )
    : undefined;
  return { settings, overrides, ...(schema ? { schema } : {}), problems };
}
