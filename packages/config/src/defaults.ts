import { HookEvent } from "./schema.js";
import type { EffectiveSettings, HookSetting } from "./effective.js";

/** The models.dev catalog, the default `[catalog] source`. */
export const DEFAULT_CATALOG_URL = "https://models.dev/api.json";

/** The default main model. */
export const DEFAULT_MODEL = "claude-sonnet-5-5";

/**
 * Every default in one place, as a fresh object on each call (callers may mutate it).
 * `model.fast` and `model.review` are filled from `model.main` after merging when unset.
 */
export function defaultSettings(): EffectiveSettings {
  const hooks = Object.fromEntries(HookEvent.options.map((e) => [e, [] as HookSetting[]]));
  return {
    model: { main: DEFAULT_MODEL, fast: "", review: "", fallbacks: [] },
    provider: { headers: {} },
    permissions: {
      mode: "ask",
      allow: [],
      ask: [],
      deny: [],
      additional_directories: [],
      auto_allow_read_only_bash: false,
    },
    hooks: hooks as EffectiveSettings["hooks"],
    mcp: { servers: {} },
    lsp: { enabled: true, servers: {} },
    verification: { mode: "auto", checks: [], max_continuations: 3 },
    context: { compact_at_percent: 80, repo_map_tokens: 1000 },
    agents: { max_turns: 200, max_concurrent: 10, max_depth: 2 },
    shell: {
      sandbox: { enabled: false, allow_network: true, auto_allow: false, extra_writable: [] },
    },
    web: { enabled: true, search_headers: {} },
    decisions: { sidecar_args: [], allow_model_switch: false, timeout_ms: 250, rules: [] },
    env: {},
    experimental: {},
    pricing: {},
    appearance: { theme: "system", show_thinking: true },
    catalog: { source: DEFAULT_CATALOG_URL },
  };
}
