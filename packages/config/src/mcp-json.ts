import type { SettingsProblem } from "./problems.js";
import { readText } from "./layer-file.js";
import { McpServer, type SettingsFile } from "./schema.js";
import { validateLeniently } from "./validate.js";

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const REMOTE_TYPES = new Set(["http", "sse", "streamable-http"]);

/** Keys Claude Code accepts on a server that only describe it (for people, not the client). */
const DESCRIPTIVE_KEYS = new Set(["description", "link"]);

/** Claude Code's `oauth` keys (camelCase) and ours. */
const OAUTH_KEYS: Record<string, string> = {
  clientId: "client_id",
  clientSecret: "client_secret",
  callbackPort: "callback_port",
  scopes: "scopes",
  authServerMetadataUrl: "auth_server_metadata_url",
  clientMetadataUrl: "client_metadata_url",
};

/** An entry's `oauth` in our keys; other keys are kept so that validation reports them. */
function toOAuth(oauth: unknown): unknown {
  if (!isPlainObject(oauth)) return oauth;
  return Object.fromEntries(Object.entries(oauth).map(([k, v]) => [OAUTH_KEYS[k] ?? k, v]));
}

/**
 * Claude Code's server entry to ours: `type` is kept only for `sse` (stdio and streamable
 * HTTP follow from `command`/`url`), `oauth`'s camelCase keys (`clientId`, `callbackPort`,
 * `scopes`, `authServerMetadataUrl`) become ours, and `$schema`, `$comment` and other `$`
 * keys, and the descriptive `description` and `link`, are dropped silently, as Claude Code
 * accepts them.
 */
function toServer(entry: Record<string, unknown>): Record<string, unknown> | string {
  const { type, ...rest } = entry;
  if (
    type !== undefined &&
    type !== "stdio" &&
    !(typeof type === "string" && REMOTE_TYPES.has(type))
  ) {
    return `unknown server type \`${String(type)}\``;
  }
  for (const key of Object.keys(rest))
    if (key.startsWith("$") || DESCRIPTIVE_KEYS.has(key)) delete rest[key];
  if (rest.oauth !== undefined) rest.oauth = toOAuth(rest.oauth);
  return type === "sse" ? { type, ...rest } : rest;
}

/**
 * Reads a project's `.mcp.json` (Claude Code's format: `{ "mcpServers": { name: { command,
 * args, env } | { type: "http", url, headers } } }`) into settings holding only
 * `mcp.servers`, to join the project layer. Undefined when the file is missing; a file that
 * is not JSON, or not of that shape, is reported and gives no servers; a bad server is
 * reported and left out (the others stay). `${VAR}` is expanded when a server starts, not
 * here. Never throws.
 */
export function readMcpJson(file: string, problems: SettingsProblem[]): SettingsFile | undefined {
  const source = readText(file, problems);
  if (source === undefined) return undefined;
  return parseMcpJson(file, source, problems);
}

/**
 * `.mcp.json` text (Claude Code's format, as {@link readMcpJson} reads it) into settings
 * holding only `mcp.servers`; `file` names the source in problems (`--mcp-config` JSON text
 * gives a label). Never throws.
 */
export function parseMcpJson(
  file: string,
  source: string,
  problems: SettingsProblem[],
): SettingsFile {
  let parsed: unknown;
  try {
    parsed = JSON.parse(source);
  } catch (error) {
    problems.push({ file, message: `not valid JSON, file skipped: ${(error as Error).message}` });
    return {};
  }
  const servers = isPlainObject(parsed) ? parsed.mcpServers : undefined;
  if (!isPlainObject(servers)) {
    problems.push({ file, key: "mcpServers", message: "expected an object `mcpServers`" });
    return {};
  }
  const out: Record<string, McpServer> = {};
  for (const [name, entry] of Object.entries(servers)) {
    const report = (path: readonly string[], message: string) => {
      problems.push({ file, key: ["mcpServers", ...path].join("."), message });
    };
    const server = isPlainObject(entry) ? toServer(entry) : "expected an object";
    if (typeof server === "string") {
      report([name], server);
      continue;
    }
    const result = validateLeniently(McpServer, server, [name], report);
    if (result.ok) out[name] = result.value as McpServer;
  }
  return { mcp: { servers: out } };
}
