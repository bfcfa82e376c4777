import type { LoadedSettings, RuleEntry } from "@z-engine/config";
import { sanitizeMcpName } from "@z-engine/integrations";
import { parseRule } from "@z-engine/policy";

const isProject = (level: string) => level === "project" || level === "local";

/**
 * The MCP servers a project's layers (`.mcp.json`, settings.toml, settings.local.toml) define
 * under a name that the user's own settings also use, with different settings: once the
 * folder is trusted, the project's entry replaces the user's. Compared as rules name servers
 * (sanitized), so `git.hub` replaces `git_hub` too. Sorted by name. Pure.
 */
export function replacedMcpServers(layers: LoadedSettings["layers"]): string[] {
  const user = new Map<string, string>();
  const replaced = new Set<string>();
  for (const layer of layers) {
    const servers = layer.values.mcp?.servers ?? {};
    for (const [name, entry] of Object.entries(servers)) {
      const key = sanitizeMcpName(name);
      if (!isProject(layer.level)) user.set(key, JSON.stringify(entry));
      else if (user.has(key) && user.get(key) !== JSON.stringify(entry)) replaced.add(name);
    }
  }
  return [...replaced].sort();
}

/**
 * The allow rules without the user-level ones that name a replaced server (`mcp__github`,
 * `mcp__github__create_issue`): the user allowed their own server, not the project's server
 * of the same name. Deny and ask rules always stay. Pure.
 */
export function withoutReplacedAllows(
  allow: readonly RuleEntry[],
  replaced: readonly string[],
): RuleEntry[] {
  if (replaced.length === 0) return [...allow];
  const names = new Set(replaced.map(sanitizeMcpName));
  return allow.filter((entry) => {
    if (isProject(entry.origin.level)) return true;
    const parsed = parseRule(entry.rule);
    return !(parsed.ok && parsed.rule.kind === "mcp" && names.has(parsed.rule.server));
  });
}

/**
 * The trust report's line for replaced servers (empty when none): which of the user's
 * servers the project's entries replace once trusted, and that the user's allow rules for
 * them do not carry over.
 */
export function replacedServersText(replaced: readonly string[]): string {
  if (replaced.length === 0) return "";
  const list = replaced.map((n) => `"${n}"`).join(", ");
  const rules = replaced.map((n) => `mcp__${sanitizeMcpName(n)}`).join(", ");
  return `The project defines its own MCP server${replaced.length > 1 ? "s" : ""} ${list}, replacing yours of the same name once the folder is trusted; your allow rules for ${rules} do not apply to ${replaced.length > 1 ? "them" : "it"} (its calls ask until a rule of the project or a new one allows them).`;
}
