import type { CheckDefinition, Effort, PermissionMode, VerificationMode } from "@z-engine/protocol";
import type {
  DecisionRuleEntry,
  ExperimentalValue,
  HookEntry,
  HookEvent,
  LspServer,
  McpServer,
  Price,
  ProviderKind,
} from "./schema.js";

/** Which layer a value came from, lowest first. */
export type LayerLevel = "default" | "user" | "project" | "local" | "env";

/** Where a permission rule (or another origin-bearing value) was written. */
export interface SettingsOrigin {
  readonly level: LayerLevel;
  /** The file it was read from (`env:NAME` for the environment, null for defaults). */
  readonly file: string | null;
  /**
   * The folder that `/path` rules in this file are relative to: the project root for
   * project and local layers (and `.mcp.json`), the config folder for the user layer.
   */
  readonly root: string;
}

/** One of the three permission rule lists. */
export type RuleList = "allow" | "ask" | "deny";

/** A permission rule as written, with its origin. Rules of no known form never get here. */
export interface RuleEntry {
  /** The rule's text, e.g. `Bash(npm test:*)`. */
  readonly rule: string;
  readonly origin: SettingsOrigin;
}

/** A hook with the file it came from. */
export interface HookSetting extends HookEntry {
  readonly origin: SettingsOrigin;
}

/**
 * The effective settings after all layers. Key names are the TOML's own snake_case names,
 * so that a key in a notice, the trust banner and the file is one string.
 */
export interface EffectiveSettings {
  model: {
    main: string;
    /** Defaults to `main`. */
    fast: string;
    /** Defaults to `main`. */
    review: string;
    effort?: Effort;
    fallbacks: string[];
    /** Whether the main model reads images; undefined: the catalog decides. */
    vision?: boolean;
  };
  provider: { kind?: ProviderKind; base_url?: string; headers: Record<string, string> };
  permissions: {
    mode: PermissionMode;
    allow: RuleEntry[];
    ask: RuleEntry[];
    deny: RuleEntry[];
    /** Absolute paths: `~` expanded, relative ones resolved against the project root. */
    additional_directories: string[];
    auto_allow_read_only_bash: boolean;
  };
  hooks: Record<HookEvent, HookSetting[]>;
  mcp: { servers: Record<string, McpServer> };
  lsp: { enabled: boolean; servers: Record<string, LspServer> };
  verification: {
    mode: VerificationMode;
    /** Configured checks (source `configured`), merged by id. */
    checks: CheckDefinition[];
    /** Check ids auto and strict modes run; undefined: the selected discovered test checks. */
    auto_checks?: string[];
    max_continuations: number;
  };
  context: {
    compact_at_percent: number;
    /** Size of the repo map in the system prompt, in tokens; 0 turns it off. */
    repo_map_tokens: number;
  };
  agents: {
    max_turns: number;
    session_cost_cap_usd?: number;
    /** Subagents (foreground and background) running at once in a session. */
    max_concurrent: number;
    /** How deep subagents may start subagents (1: only the main agent starts them). */
    max_depth: number;
  };
  shell: {
    /** The shell program; undefined: `$SHELL`, else `/bin/sh`, chosen by the host. */
    program?: string;
    sandbox: {
      enabled: boolean;
      allow_network: boolean;
      auto_allow: boolean;
      /** Absolute paths, resolved like `additional_directories`. */
      extra_writable: string[];
    };
  };
  web: { enabled: boolean; search_url?: string; search_headers: Record<string, string> };
  decisions: {
    model?: string;
    sidecar_command?: string;
    sidecar_args: string[];
    allow_model_switch: boolean;
    timeout_ms: number;
    /** `[[decisions.rules]]` as written (the highest layer's list); see `decisionRules`. */
    rules: DecisionRuleEntry[];
  };
  /** `[env]`: variables the session's programs get over the scrubbed environment. */
  env: Record<string, string>;
  experimental: Record<string, ExperimentalValue>;
  /** USD per million tokens, per model id. */
  pricing: Record<string, Price>;
  appearance: { theme: "system" | "light" | "dark"; output_style?: string; show_thinking: boolean };
  catalog: { source: string };
}
