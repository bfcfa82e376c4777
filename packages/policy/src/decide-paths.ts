import { resolve } from "node:path";
import type { CompiledRule } from "./compile.js";
import { type Decision, type Env, ruleLabel } from "./context.js";
import { hasPathRules, matchPath } from "./match.js";
import { isWithinAny, type MaybePath } from "./paths.js";
import { protectedWrite } from "./protected.js";
import type { ListIndex } from "./rule-index.js";
import { suggestPathRule } from "./suggest.js";
import { allow, ask, deny, planDenial } from "./verdict.js";

export type { MaybePath } from "./paths.js";

/** The bare rule naming the call's tool in `list`, if any (it covers every action of the call). */
export function toolRule(env: Env, list: ListIndex): CompiledRule | undefined {
  return list.byTool.get(env.toolName);
}

interface Hit {
  readonly rule: CompiledRule;
  readonly what: string;
}

/** The first rule of `list` matching any of `paths`, with what it matched. */
function firstMatch(
  env: Env,
  list: ListIndex,
  family: "read" | "write",
  paths: readonly MaybePath[],
): Hit | undefined {
  const bare = toolRule(env, list);
  if (bare) return { rule: bare, what: describe(paths) };
  for (const p of paths) {
    if (p === undefined) continue;
    const rule = matchPath(list, family, p, env);
    if (rule) return { rule, what: p };
  }
  return undefined;
}

/**
 * Decides reading or writing `paths`: deny rules first, then plan mode (writes are not
 * read-only), ask rules, bypass, allow rules, and the mode's default (reads inside the project and
 * its additional directories; in acceptEdits, writes there too).
 */
export function decidePaths(
  env: Env,
  family: "read" | "write",
  given: readonly MaybePath[],
  hardLinked = false,
): Decision {
  const paths = given.map(normalizePath);
  const verb = family === "read" ? "read" : "write";
  const denied = firstMatch(env, env.index.deny, family, paths);
  if (denied) return deny(`${verb} of ${denied.what} is denied by ${ruleLabel(denied.rule)}`);
  const unknown = paths.includes(undefined);
  if (unknown && hasPathRules(env.index.deny, family)) {
    return ask(`a ${verb} target is known only at run time, so deny rules cannot be checked`);
  }
  if (env.mode === "plan" && family === "write") return planDenial(`write ${describe(paths)}`);
  if (family === "write") {
    const guarded = protectedWrite(env, paths);
    if (guarded) return guarded;
  }
  if (env.mode !== "bypass") {
    const asked = firstMatch(env, env.index.ask, family, paths);
    if (asked) return ask(`${verb} of ${asked.what} needs approval (${ruleLabel(asked.rule)})`);
  }
  if (env.mode === "bypass") return allow("bypass mode");
  if (hardLinked && family === "read") return hardLinkedRead(env, paths);
  return defaultPaths(env, family, paths);
}

/**
 * A read of a file with several hard links: allowed only by an allow rule matching every
 * path under its own name (or a bare `Read` rule); the mode's default does not count, since
 * the file may be another one under a name nobody checked.
 */
function hardLinkedRead(env: Env, paths: readonly MaybePath[]): Decision {
  const bare = toolRule(env, env.index.allow);
  if (bare) return allow(`allowed by ${ruleLabel(bare)}`);
  let byRule: CompiledRule | undefined;
  for (const p of paths) {
    const rule = p === undefined ? undefined : matchPath(env.index.allow, "read", p, env);
    if (!rule) {
      byRule = undefined;
      break;
    }
    byRule ??= rule;
  }
  if (byRule) return allow(`allowed by ${ruleLabel(byRule)}`);
  const suggestions = paths.flatMap((p) =>
    p === undefined ? [] : [suggestPathRule("Read", p, env.projectRoot)],
  );
  return ask(
    `read of ${describe(paths)} needs approval: it has other hard links, whose names no rule was checked against (it may be a file kept out elsewhere)`,
    [...new Set(suggestions)],
  );
}

function defaultPaths(env: Env, family: "read" | "write", paths: readonly MaybePath[]): Decision {
  const bareAllow = toolRule(env, env.index.allow);
  if (bareAllow) return allow(`allowed by ${ruleLabel(bareAllow)}`);
  const pending: MaybePath[] = [];
  let byRule: CompiledRule | undefined;
  for (const p of paths) {
    const rule = p === undefined ? undefined : matchPath(env.index.allow, family, p, env);
    if (rule) byRule ??= rule;
    else if (!(p !== undefined && insideByMode(env, family) && isWithinAny(p, env.insideRoots)))
      pending.push(p);
  }
  if (pending.length === 0) {
    return allow(byRule ? `allowed by ${ruleLabel(byRule)}` : `${family} inside the project`);
  }
  const tool = family === "read" ? "Read" : "Edit";
  const suggestions = pending.flatMap((p) =>
    p === undefined ? [] : [suggestPathRule(tool, p, env.projectRoot)],
  );
  const outside = pending.some((p) => p === undefined || !isWithinAny(p, env.insideRoots));
  const where = outside ? " outside the project" : "";
  return ask(`${family}${where} needs approval: ${describe(pending)}`, [...new Set(suggestions)]);
}

function insideByMode(env: Env, family: "read" | "write"): boolean {
  return family === "read" || env.mode === "acceptEdits";
}

/** Folds `.`, `..` and doubled slashes a careless caller left in (callers should pass real paths). */
function normalizePath(p: MaybePath): MaybePath {
  if (p === undefined) return undefined;
  if (!p.startsWith("/")) return undefined;
  return /\/\.{1,2}(\/|$)|\/\/|\/$/.test(p) ? resolve(p) : p;
}

/** A short list of paths for a message. */
export function describe(paths: readonly MaybePath[]): string {
  const names = paths.map((p) => p ?? "(a path known only at run time)");
  return names.length <= 3
    ? names.join(", ")
    : `${names.slice(0, 3).join(", ")} and ${names.length - 3} more`;
}
