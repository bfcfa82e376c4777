import type { EffectiveSettings, LoadedSettings, McpServer, RuleEntry } from "@z-engine/config";
import {
  type CompiledRule,
  compileRules,
  type PermissionRules,
  type RuleError,
} from "@z-engine/policy";
import type { Effort, PermissionMode, VerificationMode } from "@z-engine/protocol";
import {
  DEFAULT_HOOK_TIMEOUT_SECS,
  HOOK_EVENTS,
  type HookDefinition,
  type HookEventName,
  type HookTable,
} from "../hooks/types.js";
import { replacedMcpServers, withoutReplacedAllows } from "../mcp/replaced.js";

/** Per-session choices that override the settings (the CLI's flags). */
export interface SessionOverrides {
  /** Wins over the settings' mode (design.md: the mode given on the command line wins). */
  readonly mode?: PermissionMode;
  readonly model?: string;
  readonly effort?: Effort;
  readonly maxTurns?: number;
  /**
   * Trust the project folder for this session only (its project settings apply, its checks
   * may run automatically); nothing is written to trust.json. Default: trust.json decides.
   */
  readonly trusted?: boolean;
  /** The verification mode (`off`, `report`, `auto`, `strict`), over the settings' `[verification] mode`. */
  readonly verification?: VerificationMode;
  /** Replaces the base system prompt (`--system-prompt`); instructions, skills and the environment stay. */
  readonly systemPrompt?: string;
  /** Appended to the base system prompt (`--append-system-prompt`). */
  readonly appendSystemPrompt?: string;
  /**
   * Each turn stops with `budgetExhausted` once its own cost reaches this many dollars
   * (`--max-budget-usd`, the Agent SDK's `maxBudgetUsd`); the session cap still applies.
   */
  readonly maxBudgetUsd?: number;
  /**
   * The session's MCP servers are exactly these, whatever the settings and `.mcp.json` name
   * (`--strict-mcp-config`, the Agent SDK's `mcpServers` with `strictMcpConfig`).
   */
  readonly mcpServers?: Readonly<Record<string, McpServer>>;
  /**
   * The host's hooks in code (the Agent SDK's `hooks`), each with `callback` set, run after
   * the settings' hooks of the same event. They are the host's own code: no trust gate.
   */
  readonly hookCallbacks?: HookTable;
  /**
   * Subagent types defined in code (the Agent SDK's `agents`), by name: offered by the Agent
   * tool before the files' agents of the same name (a host's definition wins).
   */
  readonly agents?: Readonly<Record<string, HostAgent>>;
}

/** A subagent type a host defines in code. */
export interface HostAgent {
  /** When to use it (the Agent tool lists it). */
  readonly description: string;
  /** Its system prompt. */
  readonly prompt: string;
  /** The tools it may use (default: every tool its parent has). */
  readonly tools?: readonly string[];
  /** Tools it may never use. */
  readonly disallowedTools?: readonly string[];
  /** `inherit` (default), a role, an alias or a model id, as an agent file's `model:`. */
  readonly model?: string;
}

/** What a session runs with, mapped from the effective settings. */
export interface SessionConfig {
  readonly settings: EffectiveSettings;
  readonly mode: PermissionMode;
  readonly model: string;
  readonly fastModel: string;
  /**
   * `[model] review` when it names a model other than `[model] main`: the review agent's (and
   * `/review`'s) model. Undefined: reviews run on the session's main model, whatever `/model` chose.
   */
  readonly reviewModel: string | undefined;
  readonly effort: Effort | undefined;
  readonly maxTurns: number;
  readonly costCapUsd: number | undefined;
  /** The per-turn cost cap (SessionOverrides' `maxBudgetUsd`). */
  readonly turnCostCapUsd: number | undefined;
  readonly compactAtPercent: number;
  readonly rules: PermissionRules;
  readonly ruleErrors: readonly RuleError[];
  readonly hooks: HookTable;
}

function compileList(entries: readonly RuleEntry[], errors: RuleError[]): CompiledRule[] {
  const out: CompiledRule[] = [];
  for (const entry of entries) {
    const compiled = compileRules([entry.rule], {
      source: entry.origin.file ?? entry.origin.level,
      root: entry.origin.root,
    });
    out.push(...compiled.rules);
    errors.push(...compiled.errors);
  }
  return out;
}

/** The hooks table of the settings, in the runner's shape. */
export function hookTable(settings: EffectiveSettings): HookTable {
  const table: Record<string, { matcher: string; command: string; timeoutSecs: number }[]> = {};
  for (const event of HOOK_EVENTS) {
    const entries = settings.hooks[event] ?? [];
    if (entries.length === 0) continue;
    table[event] = entries.map((h) => ({
      matcher: h.matcher ?? "",
      command: h.command,
      timeoutSecs: h.timeout_secs ?? DEFAULT_HOOK_TIMEOUT_SECS,
    }));
  }
  return table;
}

function withCallbacks(table: HookTable, callbacks: HookTable | undefined): HookTable {
  if (!callbacks) return table;
  const out: Partial<Record<HookEventName, readonly HookDefinition[]>> = { ...table };
  for (const event of HOOK_EVENTS) {
    const more = callbacks[event] ?? [];
    if (more.length > 0) out[event] = [...(table[event] ?? []), ...more];
  }
  return out;
}

/** Maps loaded settings (and the session's overrides) onto what the session runs with. Never throws. */
export function sessionConfig(
  loaded: LoadedSettings,
  overrides: SessionOverrides = {},
): SessionConfig {
  const s = overrides.mcpServers
    ? { ...loaded.settings, mcp: { servers: { ...overrides.mcpServers } } }
    : loaded.settings;
  const ruleErrors: RuleError[] = [];
  // A trusted project's server named like one of the user's does not get the user's allow rules.
  const replaced = loaded.trusted ? replacedMcpServers(loaded.layers) : [];
  const rules: PermissionRules = {
    allow: compileList(withoutReplacedAllows(s.permissions.allow, replaced), ruleErrors),
    ask: compileList(s.permissions.ask, ruleErrors),
    deny: compileList(s.permissions.deny, ruleErrors),
  };
  return {
    settings: s,
    mode: overrides.mode ?? s.permissions.mode,
    model: overrides.model ?? s.model.main,
    fastModel: s.model.fast || s.model.main,
    reviewModel: s.model.review && s.model.review !== s.model.main ? s.model.review : undefined,
    effort: overrides.effort ?? s.model.effort,
    maxTurns: overrides.maxTurns ?? s.agents.max_turns,
    costCapUsd: s.agents.session_cost_cap_usd,
    turnCostCapUsd: overrides.maxBudgetUsd,
    compactAtPercent: s.context.compact_at_percent,
    rules,
    ruleErrors,
    hooks: withCallbacks(hookTable(s), overrides.hookCallbacks),
  };
}
