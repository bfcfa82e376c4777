import type { PermissionMode } from "@z-engine/protocol";
import type { CompiledRule } from "./compile.js";
import { normalizeRoot } from "./paths.js";
import type { RuleIndex } from "./rule-index.js";

/** The facts `decide()` needs about where the call runs. All paths are absolute. */
export interface DecideContext {
  /** The project folder (the session's root, or a worktree agent's worktree). */
  readonly projectRoot: string;
  /** Extra folders treated like the project (`additional_directories`, `/add-dir`). */
  readonly additionalDirectories: readonly string[];
  /** The user's home folder, for `~/` rules and `~` in commands. */
  readonly homeDir: string;
  /** The sandbox, when commands run inside one; `writableRoots` are its writable areas. */
  readonly sandbox?: { readonly autoAllow: boolean; readonly writableRoots: readonly string[] };
  /** `auto_allow_read_only_bash`: run read-only commands inside the project without asking. */
  readonly autoAllowReadOnlyBash: boolean;
  /**
   * The engine's own folders (its data and config folders). A write inside one always asks
   * (in every mode but bypass), like a write to a protected path of the project.
   */
  readonly engineDirs?: readonly string[];
  /**
   * True while the project is not trusted. Its repository's git configuration may name
   * programs (fsmonitor, external diff, textconv, pager) that even `git status` or `git log`
   * would start, so no git command is auto-allowed as read-only; an allow rule still allows.
   */
  readonly untrustedRepository?: boolean;
}

/** A tool call as the gate sees it: its tool's name and what it would do. */
export interface ToolCall {
  readonly toolName: string;
  readonly actions: readonly import("./action.js").Action[];
}

/** The outcome of {@link decide}. `suggestedRules` are offered for "Always allow" (may be empty). */
export type Decision =
  | { readonly type: "allow"; readonly reason?: string }
  | { readonly type: "deny"; readonly reason: string }
  | { readonly type: "ask"; readonly reason: string; readonly suggestedRules: readonly string[] };

/** Everything one decision reads, normalised once. */
export interface Env {
  readonly toolName: string;
  readonly mode: PermissionMode;
  readonly index: RuleIndex;
  readonly projectRoot: string;
  /** The project and its additional directories. */
  readonly insideRoots: readonly string[];
  readonly homeDir: string;
  readonly writableRoots: readonly string[] | undefined;
  readonly autoAllowReadOnlyBash: boolean;
  /** The engine's own folders ({@link DecideContext.engineDirs}). */
  readonly engineDirs: readonly string[];
  /** {@link DecideContext.untrustedRepository}. */
  readonly untrustedRepository: boolean;
}

type EnvBase = Omit<Env, "toolName" | "mode" | "index">;

/**
 * The last context normalised, and its result. One slot, not a WeakMap keyed by context:
 * callers that build a fresh context per call (the engine's gate does) would pay a WeakMap
 * insertion and its garbage-collection cost on every decision, more than normalising anew.
 */
let lastContext: { readonly ctx: DecideContext; readonly base: EnvBase } | undefined;

function envBase(ctx: DecideContext): EnvBase {
  if (lastContext?.ctx === ctx) return lastContext.base;
  const projectRoot = normalizeRoot(ctx.projectRoot);
  const base: EnvBase = {
    projectRoot,
    insideRoots: [projectRoot, ...ctx.additionalDirectories.map(normalizeRoot)],
    homeDir: normalizeRoot(ctx.homeDir),
    writableRoots: ctx.sandbox?.autoAllow
      ? ctx.sandbox.writableRoots.map(normalizeRoot)
      : undefined,
    autoAllowReadOnlyBash: ctx.autoAllowReadOnlyBash,
    engineDirs: (ctx.engineDirs ?? []).map(normalizeRoot),
    untrustedRepository: ctx.untrustedRepository ?? false,
  };
  lastContext = { ctx, base };
  return base;
}

/** Normalises a context (the last context's result is reused while the same object comes). */
export function makeEnv(
  toolName: string,
  mode: PermissionMode,
  index: RuleIndex,
  ctx: DecideContext,
): Env {
  const base = envBase(ctx);
  return {
    toolName,
    mode,
    index,
    projectRoot: base.projectRoot,
    insideRoots: base.insideRoots,
    homeDir: base.homeDir,
    writableRoots: base.writableRoots,
    autoAllowReadOnlyBash: base.autoAllowReadOnlyBash,
    engineDirs: base.engineDirs,
    untrustedRepository: base.untrustedRepository,
  };
}

/** "`Bash(npm test:*)` from settings.toml" */
export function ruleLabel(rule: CompiledRule): string {
  return `\`${rule.rule.text}\` (${rule.origin.source})`;
}
