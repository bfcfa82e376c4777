import { frontmatterHookTable } from "../hooks/frontmatter-table.js";
import type { HookRunner } from "../hooks/runner.js";
import type { SessionCore } from "../core/session-core.js";
import type { SubagentRun } from "./subagent.js";

/**
 * The hooks a subagent's events run: the session's and its definition's own, or undefined
 * when it adds none (the session's apply). A project's agent adds none in an untrusted
 * folder (its hooks are project code, gated like the project's settings), with a notice; so
 * is each part of its `hooks:` that could not be used (`agent.hooks`). Rejects only when the
 * log cannot be written.
 */
export async function agentHooks(
  core: Pick<SessionCore, "hooks" | "trusted" | "journal">,
  run: Pick<SubagentRun, "definition" | "type">,
): Promise<HookRunner | undefined> {
  // Its Stop hooks are SubagentStop ones: a subagent stops with that event.
  const { table, problems } = frontmatterHookTable(run.definition.hooks, "SubagentStop");
  const name = run.definition.name;
  for (const p of problems)
    await core.journal.notice("warning", "agent.hooks", `agent ${name}: ${p}`);
  if (Object.keys(table).length === 0) return undefined;
  if (run.type.source === "project" && !core.trusted) {
    await core.journal.notice(
      "warning",
      "agent.hooks",
      `agent ${name}: its hooks do not run, as this folder is not trusted`,
    );
    return undefined;
  }
  return core.hooks.with(table);
}
