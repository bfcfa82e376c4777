import type { Reminder, ReminderQueue } from "@z-engine/context";
import type { ContentBlock, TurnId } from "@z-engine/protocol";
import type { AgentPort } from "@z-engine/tools";
import type { Journal } from "../journal/journal.js";

const MENTION = /(?<![\w@])@agent-([A-Za-z0-9][\w.:-]*)/g;

/**
 * The `@agent-<name>` mentions in a prompt whose name passes `known`, in order of first
 * appearance, without repeats. Trailing punctuation (`.`, `:`, `-`) is not part of a name. Pure.
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

const mentionsIn = (b: ContentBlock) => b.type === "text" && b.text.includes("@agent-");

/** What {@link queueAgentMentions} needs of the session. */
export interface MentionTarget {
  readonly ports: { readonly agents?: Pick<AgentPort, "catalog"> };
  readonly reminders: ReminderQueue;
  readonly journal: Pick<Journal, "notice">;
}

/**
 * Queues, for the user message that opens turn `turnId`, one reminder per `@agent-<name>`
 * of a known agent type in the prompt `text` and the text of `blocks` (a prompt command's
 * body). A name the session does not know adds no reminder and gives one info notice
 * (`agents.unknownMention`) naming the known types. Does nothing in a session without
 * agents. Never rejects.
 */
export async function queueAgentMentions(
  session: MentionTarget,
  turnId: TurnId,
  text: string,
  blocks: readonly ContentBlock[] = [],
): Promise<void> {
  const port = session.ports.agents;
  if (!port || (!text.includes("@agent-") && !blocks.some(mentionsIn))) return;
  const prompt = [text, ...blocks.map((b) => (b.type === "text" ? b.text : ""))].join("\n");
  const names = new Set(port.catalog().map((t) => t.name));
  for (const name of agentMentions(prompt, (n) => names.has(n)))
    session.reminders.add(agentMentionReminder(name, turnId));
  const unknown = agentMentions(prompt, (n) => !names.has(n));
  if (unknown.length === 0) return;
  const list = unknown.map((n) => `@agent-${n}`).join(", ");
  await session.journal.notice(
    "info",
    "agents.unknownMention",
    `${list}: no such agent type, so no reminder was added (known: ${[...names].join(", ")}).`,
    { turnId },
  );
}
