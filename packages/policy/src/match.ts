import type { CompiledRule } from "./compile.js";
import type { Env } from "./context.js";
import { matchGlob } from "./glob.js";
import { relativeTo } from "./paths.js";
import type { ListIndex } from "./rule-index.js";

/** The first rule of `list` matching a simple command's words, if any. */
export function matchCommand(list: ListIndex, argv: readonly string[]): CompiledRule | undefined {
  const family = list.byFamily.get("command");
  if (family) return family;
  const named = list.commandsByName.get(argv[0] ?? "");
  if (named) for (const r of named) if (r.commandTest?.(argv)) return r;
  for (const r of list.commandsAnyName) if (r.commandTest?.(argv)) return r;
  return undefined;
}

/** True when `list` has `Bash(...)` rules with a specifier (so a command's name matters). */
export function hasCommandRules(list: ListIndex): boolean {
  return list.commandsByName.size > 0 || list.commandsAnyName.length > 0;
}

/** The first path rule of `list` (Read rules for reads, Edit/Write rules for writes) matching `path`. */
export function matchPath(
  list: ListIndex,
  family: "read" | "write",
  path: string,
  env: Env,
): CompiledRule | undefined {
  const bare = list.byFamily.get(family);
  if (bare) return bare;
  const rules = family === "read" ? list.readPaths : list.writePaths;
  for (const r of rules) {
    const glob = r.glob;
    if (!glob) continue;
    const base = baseOf(r, env);
    // Cheap rejections first: the rule's base folder, then the glob's literal start.
    const start = base === "/" ? 1 : base.length + 1;
    if (
      base !== "/" &&
      !(
        path.startsWith(base) &&
        (path.length === base.length || path.charCodeAt(base.length) === 47)
      )
    ) {
      continue;
    }
    if (glob.literal !== "" && !path.startsWith(glob.literal, start)) continue;
    const rel = relativeTo(path, base);
    if (rel !== undefined && matchGlob(glob, rel)) return r;
  }
  return undefined;
}

/** True when `list` has path rules of the family with a specifier. */
export function hasPathRules(list: ListIndex, family: "read" | "write"): boolean {
  return (family === "read" ? list.readPaths : list.writePaths).length > 0;
}

/**
 * The folder below which a path rule can match: its base folder plus the glob's fixed folders
 * (`Read(./secrets/**)` is the project's `secrets`; `Read(*.env)` is the project).
 */
export function ruleRoot(r: CompiledRule, env: Env): string {
  const base = baseOf(r, env);
  const literal = r.glob?.literal ?? "";
  const cut = literal.lastIndexOf("/");
  if (cut <= 0) return base;
  return base === "/" ? `/${literal.slice(0, cut)}` : `${base}/${literal.slice(0, cut)}`;
}

function baseOf(r: CompiledRule, env: Env): string {
  if (r.rule.kind !== "path") return env.projectRoot;
  switch (r.rule.anchor) {
    case "absolute":
      return "/";
    case "home":
      return env.homeDir;
    case "settings":
      return r.origin.root ?? env.projectRoot;
    case "project":
      return env.projectRoot;
  }
}

/** The first `WebFetch(domain:...)` rule (or bare `WebFetch`) matching `domain`. */
export function matchDomain(list: ListIndex, domain: string): CompiledRule | undefined {
  const bare = list.byFamily.get("network");
  if (bare) return bare;
  const host = domain.toLowerCase().replace(/\.$/, "");
  const exact = list.domains.get(host);
  if (exact) return exact;
  for (const r of list.domainWildcards) {
    if (r.rule.kind === "domain" && host.endsWith(r.rule.domain.slice(1))) return r;
  }
  return undefined;
}

/** The first `mcp__server[__tool]` rule matching an MCP call. */
export function matchMcp(list: ListIndex, server: string, tool: string): CompiledRule | undefined {
  const rules = list.mcpByServer.get(server);
  if (!rules) return undefined;
  for (const r of rules)
    if (r.rule.kind === "mcp" && (r.rule.tool === undefined || r.rule.tool === tool)) return r;
  return undefined;
}

/** The `Skill(name)` rule for a skill (a bare `Skill` rule is the tool rule, checked first). */
export function matchSkill(list: ListIndex, name: string): CompiledRule | undefined {
  return list.skills.get(name);
}

/** The first `Task(type)`/`Agent(type)` rule (or bare `Task`/`Agent`) matching an agent type. */
export function matchAgent(list: ListIndex, agentType: string): CompiledRule | undefined {
  return list.byFamily.get("agent") ?? list.agents.get(agentType);
}
