import { sanitizeMcpName, serverNameProblem } from "@z-engine/integrations";
import type { ServerEntry } from "./specs.js";

/** An entry and, when it cannot be started, why. */
export interface CheckedEntry {
  readonly entry: ServerEntry;
  readonly problem?: string;
}

/**
 * The entries with the ones that cannot be used marked: a name `mcp__` rules could not tell
 * apart (see `serverNameProblem`), or one that names the same rules as an earlier entry
 * (`a.b` and `a_b` are both `mcp__a_b`).
 */
export function checkedEntries(entries: readonly ServerEntry[]): CheckedEntry[] {
  const byRuleName = new Map<string, string>();
  return entries.map((entry) => {
    const name = entry.spec.name;
    const problem = serverNameProblem(name);
    if (problem) return { entry, problem };
    const rule = sanitizeMcpName(name);
    const first = byRuleName.get(rule);
    if (first !== undefined)
      return {
        entry,
        problem: `the name "${name}" is "${rule}" in tool names and rules, as the server "${first}" is (rename one of them)`,
      };
    byRuleName.set(rule, name);
    return { entry };
  });
}
