import type { FrontmatterHooks } from "@z-engine/prompts";
import {
  DEFAULT_HOOK_TIMEOUT_SECS,
  HOOK_EVENTS,
  type HookDefinition,
  type HookEventName,
  type HookTable,
} from "./types.js";

/**
 * A definition's frontmatter `hooks:` as a hook table. `stopAs` is the event its `Stop` hooks
 * become: `SubagentStop` for an agent (a subagent stops with that event, as Claude Code
 * converts them), `Stop` for a command or skill. An event zeng does not run, and each part
 * the reader could not use, is a problem line.
 */
export function frontmatterHookTable(
  parsed: FrontmatterHooks,
  stopAs: "Stop" | "SubagentStop",
): { table: HookTable; problems: string[] } {
  const table: Partial<Record<HookEventName, HookDefinition[]>> = {};
  const problems = [...parsed.problems];
  for (const hook of parsed.hooks) {
    const event = hook.event === "Stop" ? stopAs : hook.event;
    if (!(HOOK_EVENTS as readonly string[]).includes(event)) {
      problems.push(`hook event \`${hook.event}\` is not run by zeng`);
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
  return { table, problems };
}
