// The SDK's options as the engine's: a host settings layer, session overrides, in-process tools.
import type { SessionOverrides } from "@z-engine/engine";
import type { PermissionMode as EngineMode } from "@z-engine/protocol";
import type { Tool } from "@z-engine/tools";
import { hookCallbacks } from "./hooks.js";
import { type SdkMcpServer, sdkServerTools } from "./sdk-tools.js";
import type { McpServerConfig, Options, PermissionMode } from "./types.js";

const MODES: Readonly<Record<PermissionMode, EngineMode>> = {
  default: "ask",
  acceptEdits: "acceptEdits",
  plan: "plan",
  bypassPermissions: "bypass",
  dontAsk: "ask",
};

/** The engine's mode for an SDK mode (`dontAsk` is `ask` with every ask denied). */
export function engineMode(mode: PermissionMode): EngineMode {
  const m = MODES[mode];
  if (!m) throw new TypeError(`unknown permission mode ${String(mode)}`);
  return m;
}

/** What a query opens its engine and session with. */
export interface SessionSetup {
  readonly settings: Record<string, unknown>;
  readonly overrides: SessionOverrides;
  readonly tools: Tool[];
  /** The in-process servers' names, for the init message. */
  readonly sdkServers: string[];
}

function isSdk(config: McpServerConfig): config is SdkMcpServer {
  return config.type === "sdk";
}

/** A remote or stdio server in the shape of zeng's settings (`mcp.servers`). */
function engineServer(config: Exclude<McpServerConfig, SdkMcpServer>): Record<string, unknown> {
  if (config.type === "sse" || config.type === "http")
    return {
      ...(config.type === "sse" ? { type: "sse" } : {}),
      url: config.url,
      ...(config.headers ? { headers: config.headers } : {}),
    };
  return {
    command: config.command,
    ...(config.args ? { args: config.args } : {}),
    ...(config.env ? { env: config.env } : {}),
  };
}

function systemPrompt(options: Options): SessionOverrides {
  const p = options.systemPrompt;
  if (p === undefined) return {};
  if (typeof p === "string") return { systemPrompt: p };
  return p.append ? { appendSystemPrompt: p.append } : {};
}

/**
 * Maps `options` onto the engine; what it cannot honour goes to `warn`. Throws TypeError for
 * an unknown permission mode.
 */
export function sessionSetup(options: Options, warn: (message: string) => void): SessionSetup {
  const hooks = hookCallbacks(options.hooks, warn);
  const sources = options.settingSources;
  if (sources && !(sources.includes("user") && sources.includes("project")))
    warn(
      "settingSources: zeng reads the user's and the project's settings files whatever this says",
    );
  const entries = Object.entries(options.mcpServers ?? {});
  const sdk = entries.filter((e): e is [string, SdkMcpServer] => isSdk(e[1]));
  const external = Object.fromEntries(
    entries.flatMap(([name, c]) => (isSdk(c) ? [] : [[name, engineServer(c)]])),
  );
  const strict = options.strictMcpConfig === true;
  // Only what the host gave: an empty list here would replace the user's own lists.
  const permissions = {
    ...(options.allowedTools?.length ? { allow: options.allowedTools } : {}),
    ...(options.disallowedTools?.length ? { deny: options.disallowedTools } : {}),
    ...(options.additionalDirectories?.length
      ? { additional_directories: options.additionalDirectories }
      : {}),
  };
  const settings: Record<string, unknown> = {
    ...(Object.keys(permissions).length > 0 ? { permissions } : {}),
    ...(options.fallbackModel ? { model: { fallbacks: [options.fallbackModel] } } : {}),
    ...(!strict && entries.length > sdk.length ? { mcp: { servers: external } } : {}),
  };
  const overrides: SessionOverrides = {
    ...systemPrompt(options),
    ...(options.permissionMode ? { mode: engineMode(options.permissionMode) } : {}),
    ...(options.model ? { model: options.model } : {}),
    ...(options.maxTurns ? { maxTurns: options.maxTurns } : {}),
    ...(options.maxBudgetUsd === undefined ? {} : { maxBudgetUsd: options.maxBudgetUsd }),
    ...(hooks ? { hookCallbacks: hooks } : {}),
    ...(options.agents ? { agents: options.agents } : {}),
    ...(strict ? { mcpServers: external as SessionOverrides["mcpServers"] & object } : {}),
  };
  return { settings, overrides, tools: sdkServerTools(sdk), sdkServers: sdk.map(([n]) => n) };
}
