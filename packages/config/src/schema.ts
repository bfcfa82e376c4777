import {
  CheckKind,
  Effort,
  HOOK_EVENTS,
  type HookEventName,
  lazily,
  once,
  PermissionMode,
  PROVIDER_KINDS,
  type ProviderKind as ProtocolProviderKind,
  VerificationMode,
} from "@z-engine/protocol";
import { parseRule } from "@z-engine/policy";
import { z } from "zod";
import { McpServer } from "./schema-mcp.js";
import { httpUrl, stringList, stringMap, text } from "./schema-parts.js";

export { McpOAuth, McpServer } from "./schema-mcp.js";

/**
 * The settings file schema: what one settings.toml may hold, every key optional. Keys are
 * snake_case as the spec writes them. Objects are strict, so an unknown key is reported
 * (and skipped) instead of silently ignored. Defaults live in defaults.ts, not here.
 *
 * Every schema here is built on its first use (protocol's `lazily`), each section on its
 * own (issue 18): building all of them took about 5 ms of `zeng -p`'s start, which reads a
 * settings file of one or two sections, or none.
 */

/** A permission rule in a known form (policy's grammar); any other text is a settings error. */
export const RuleText = lazily(() =>
  z.string().superRefine((rule, ctx) => {
    const parsed = parseRule(rule);
    if (!parsed.ok)
      ctx.addIssue({ code: "custom", message: `bad rule \`${rule}\`: ${parsed.error}` });
  }),
);
const ruleList = once(() => z.array(RuleText));

/** `provider.kind`: which wire format to speak (forces the adapter). */
export const ProviderKind = lazily(() => z.enum(PROVIDER_KINDS));
export type ProviderKind = ProtocolProviderKind;

/** The hook events, named as Claude Code names them so hook scripts work unchanged. */
export const HookEvent = lazily(() => z.enum(HOOK_EVENTS));
export type HookEvent = HookEventName;

/** One `[[hooks.<Event>]]` entry. */
export const HookEntry = lazily(() =>
  z.strictObject({
    /** A regular expression on the tool name; empty or `*` matches every tool. */
    matcher: z.string().optional(),
    command: text(),
    timeout_secs: z.number().positive().optional(),
  }),
);
export type HookEntry = z.infer<typeof HookEntry>;

/**
 * One `[[decisions.rules]]` entry as written: every key optional here, so a rule without
 * `when` or with an unknown `at` reaches `decisionRules`, which skips it with a notice.
 */
export const DecisionRuleEntry = lazily(() =>
  z.strictObject({
    name: z.string().optional(),
    /** What the rule is about, in words the decision model judges a call or prompt by. */
    when: z.string().optional(),
    /** `tool_gate` or `turn_start`. */
    at: z.string().optional(),
    /** For `turn_start`: the reminder's text (default: the `when` text). */
    remind: z.string().optional(),
  }),
);
export type DecisionRuleEntry = z.infer<typeof DecisionRuleEntry>;

/** One `[lsp.servers.<name>]`: a language server for the given file extensions. */
export const LspServer = lazily(() =>
  z.strictObject({
    command: text(),
    args: z.array(z.string()).optional(),
    /** File extensions it serves, without or with the dot: `["ts", ".tsx"]`. */
    extensions: stringList().min(1),
    /** Extra environment variables for the server. */
    env: stringMap().optional(),
    /** Sent to the server as `initializationOptions`. */
    initialization_options: z.record(z.string(), z.unknown()).optional(),
  }),
);
export type LspServer = z.infer<typeof LspServer>;

/** One `[[verification.checks]]` entry; it replaces a discovered check of the same id. */
export const CheckEntry = lazily(() =>
  z.strictObject({
    id: text(),
    kind: CheckKind,
    command: text(),
    /** Relative to the project root; `.` by default. */
    cwd: z.string().optional(),
  }),
);
export type CheckEntry = z.infer<typeof CheckEntry>;

/** Prices in USD per million tokens. */
export const Price = lazily(() =>
  z.strictObject({
    input: z.number().nonnegative(),
    output: z.number().nonnegative(),
    cache_read: z.number().nonnegative().optional(),
    cache_write: z.number().nonnegative().optional(),
  }),
);
export type Price = z.infer<typeof Price>;

/** An experimental feature switch: a boolean, or `off` | `on` | `shadow` for decision uses. */
export const ExperimentalValue = lazily(() =>
  z.union([z.boolean(), z.enum(["off", "on", "shadow"])]),
);
export type ExperimentalValue = z.infer<typeof ExperimentalValue>;

/** What an `[env]` variable name must look like (a shell's own rule). */
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The schema of each top-level section, by name (strict objects; maps for env, pricing and experimental). */
export const Sections = {
  model: lazily(() =>
    z.strictObject({
      main: text().optional(),
      fast: text().optional(),
      review: text().optional(),
      effort: Effort.optional(),
      fallbacks: stringList().optional(),
      /** Whether the main model reads images; unset: the model catalog says (else yes). */
      vision: z.boolean().optional(),
    }),
  ),
  provider: lazily(() =>
    z.strictObject({
      kind: ProviderKind.optional(),
      base_url: httpUrl().optional(),
      headers: stringMap().optional(),
    }),
  ),
  permissions: lazily(() =>
    z.strictObject({
      mode: PermissionMode.optional(),
      allow: ruleList().optional(),
      ask: ruleList().optional(),
      deny: ruleList().optional(),
      additional_directories: stringList().optional(),
      auto_allow_read_only_bash: z.boolean().optional(),
    }),
  ),
  hooks: lazily(() =>
    z.strictObject(
      Object.fromEntries(
        HookEvent.options.map((e) => [e, z.array(HookEntry).optional()]),
      ) as Record<HookEvent, z.ZodOptional<z.ZodArray<typeof HookEntry>>>,
    ),
  ),
  mcp: lazily(() => z.strictObject({ servers: z.record(text(), McpServer).optional() })),
  lsp: lazily(() =>
    z.strictObject({
      /** Language servers on or off (default on; they run only in trusted projects). */
      enabled: z.boolean().optional(),
      servers: z.record(text(), LspServer).optional(),
    }),
  ),
  verification: lazily(() =>
    z.strictObject({
      mode: VerificationMode.optional(),
      checks: z.array(CheckEntry).optional(),
      auto_checks: stringList().optional(),
      max_continuations: z.int().min(0).max(100).optional(),
    }),
  ),
  context: lazily(() =>
    z.strictObject({
      compact_at_percent: z.number().min(1).max(100).optional(),
      repo_map_tokens: z.int().min(0).max(100_000).optional(),
    }),
  ),
  agents: lazily(() =>
    z.strictObject({
      max_turns: z.int().positive().optional(),
      session_cost_cap_usd: z.number().positive().optional(),
      max_concurrent: z.int().min(1).max(100).optional(),
      max_depth: z.int().min(1).max(5).optional(),
    }),
  ),
  shell: lazily(() =>
    z.strictObject({
      program: text().optional(),
      sandbox: z
        .strictObject({
          enabled: z.boolean().optional(),
          allow_network: z.boolean().optional(),
          auto_allow: z.boolean().optional(),
          extra_writable: stringList().optional(),
        })
        .optional(),
    }),
  ),
  web: lazily(() =>
    z.strictObject({
      /** WebFetch and WebSearch on or off. */
      enabled: z.boolean().optional(),
      /** The search endpoint WebSearch queries (`?q=` is appended). */
      search_url: httpUrl().optional(),
      search_headers: stringMap().optional(),
    }),
  ),
  decisions: lazily(() =>
    z.strictObject({
      /** The decision model: a catalog id or a path to local weights. */
      model: text().optional(),
      sidecar_command: text().optional(),
      sidecar_args: z.array(z.string()).optional(),
      /** The route use may run a simple task on the fast model (default false: effort only). */
      allow_model_switch: z.boolean().optional(),
      timeout_ms: z.int().positive().optional(),
      /** `[[decisions.rules]]`: custom rules (checked leniently by `decisionRules`). */
      rules: z.array(DecisionRuleEntry).optional(),
    }),
  ),
  /**
   * Environment variables for the programs the user and the model run (shell commands, jobs,
   * checks, hooks, stdio MCP and language servers): name → value, merged per variable.
   */
  env: lazily(() =>
    z.record(z.string().regex(ENV_NAME, "letters, digits and _, not first a digit"), z.string()),
  ),
  experimental: lazily(() => z.record(text(), ExperimentalValue)),
  pricing: lazily(() => z.record(text(), Price)),
  appearance: lazily(() =>
    z.strictObject({
      theme: z.enum(["system", "light", "dark"]).optional(),
      output_style: text().optional(),
      show_thinking: z.boolean().optional(),
    }),
  ),
  catalog: lazily(() =>
    z.strictObject({
      /** Where the model catalog comes from: an http(s) URL, or `off`. */
      source: z.union([z.literal("off"), httpUrl()]).optional(),
    }),
  ),
} as const;

/** The name of a top-level settings section. */
export type SectionName = keyof typeof Sections;

/** The section names in the order the spec lists them. */
export const SECTION_NAMES = Object.keys(Sections) as SectionName[];

/** One settings file, validated: every section and key optional. */
export const SettingsFile = lazily(() =>
  z.strictObject(
    Object.fromEntries(SECTION_NAMES.map((name) => [name, Sections[name].optional()])) as {
      [K in SectionName]: z.ZodOptional<(typeof Sections)[K]>;
    },
  ),
);
export type SettingsFile = z.infer<typeof SettingsFile>;
