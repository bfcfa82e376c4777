import type { Reminder } from "@z-engine/context";

const MENTION = /(?<![\w@])@agent-([A-Za-z0-9][\w.:-]*)/g;

/**
 * The `@agent-<name>` mentions in a prompt whose name is a known agent type, in order of
 * first appearance, without repeats. Pure.
 */
export function agentMentions(prompt: string, known: (name: string) => boolean): string[] {
  const found: string[] = [];
  for (const match of prompt.matchAll(MENTION)) {
    const name = (match[1] ?? "").replace(/[.:-]+$/, "");
    if (known(name) && !found.includes(name)) found.push(name);
  }
  return found;
}

/**
 * The reminder for one mention: use the Agent tool with `subagent_type` `name`. The key is
 * stable per turn, so a repeated mention in one prompt adds one reminder.
 */
export function agentMentionReminder(name: string, turnKey: string): Reminder {
  return {
    key: `agent-mention:${turnKey}:${name}`,
    text: `The user asked for the "${name}" agent: use the Agent tool with subagent_type "${name}" for this request.`,
  };
}
