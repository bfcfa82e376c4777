import { isProtectedPath } from "@z-engine/protocol";
import type { Env } from "./context.js";
import { isWithinAny, type MaybePath, relativeTo } from "./paths.js";
import { ask } from "./verdict.js";
import type { Decision } from "./context.js";

/** A `.git` folder (or file) at any depth: a nested or parent repository's hooks and config. */
const GIT_SEGMENT = /\/\.git(\/|$)/i;

/**
 * Why writing `path` is a write to a protected place, or undefined when it is not: a protected
 * path of the project or of an additional directory (`@z-engine/protocol`'s `PROTECTED_PATHS`),
 * a `.git` folder anywhere, or the engine's own folders.
 */
export function protectedReason(env: Env, path: string): string | undefined {
  // Every protected path starts with a dot segment: skip the rest for the common path.
  if (path.includes("/.")) return dotReason(env, path) ?? engineReason(env, path);
  return engineReason(env, path);
}

function dotReason(env: Env, path: string): string | undefined {
  if (GIT_SEGMENT.test(path)) return "a git folder";
  for (const root of env.insideRoots) {
    const rel = relativeTo(path, root);
    if (rel !== undefined && rel !== "" && isProtectedPath(rel)) return "a protected path";
  }
  return undefined;
}

function engineReason(env: Env, path: string): string | undefined {
  if (env.engineDirs.length > 0 && isWithinAny(path, env.engineDirs))
    return "the engine's own files";
  return undefined;
}

/**
 * The ask for the first of `paths` that is protected, or undefined. Writes there can run code
 * later (a git hook, a settings hook, an MCP server) or widen what the agent may do, so they ask
 * in every mode but bypass, whatever allow rule matches; an allow rule cannot be suggested.
 */
export function protectedWrite(env: Env, paths: readonly MaybePath[]): Decision | undefined {
  if (env.mode === "bypass") return undefined;
  for (const p of paths) {
    if (p === undefined) continue;
    const why = protectedReason(env, p);
    if (why) return ask(`writing ${p} changes ${why}, which always needs approval`);
  }
  return undefined;
}
