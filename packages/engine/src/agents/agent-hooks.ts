import { DEFAULT_HOOK_TIMEOUT_SECS } from "../settings/session-config.js";
import {
  HOOK_EVENTS,
  type HookDefinition,
  type HookEventName,
  type HookTable,
} from "../hooks/types.js";
import type { HookRunner } from "../hooks/runner.js";
import type { SessionCore } from "../session/core.js";
import type { SubagentRun } from "./subagent.js";

/**
 * A definition's `hooks:` as a hook table, as Claude Code scopes them to a subagent: they run
 * only while it runs, and its `Stop` hooks are `SubagentStop` ones (a subagent stops with
 * that event). An event zeng does not run is a problem line.
 */
export function agentHookTable(run: Pick<SubagentRun, "definition">): {
  table: HookTable;
  problems: string[];
} {
  const { hooks, problems } = run.definition.hooks;
  const table: Partial<Record<HookEventName, HookDefinition[]>> = {};
  const out = [...problems];
  for (const hook of hooks) {
    const event = hook.event === "Stop" ? "SubagentStop" : hook.event;
    if (!(HOOK_EVENTS as readonly string[]).includes(event)) {
      out.push(`hook event \`${hook.event}\` is not run by zeng`);
      continue;
    }
    const list = table[event as HookEventName] ?? [];
    list.push({
      matcher: hook.matcher,
      command: hook.command,
      timeoutSecs: hook.timeoutSecs ?? DEFAULT_HOOK_TIMEOUT_SECS,
    });
    table[event as HookEventName] = list;
  }
  return { table, problems: out };
}

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
  const { table, problems } = agentHookTable(run);
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
