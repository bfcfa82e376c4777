import type { Message, MessageId, PermissionMode, Usage } from "@z-engine/protocol";
import { readLog, replay } from "@z-engine/store";

/** One message of a stored conversation as a host shows it: who said it and its text. */
export interface HistoryMessage {
  readonly messageId: MessageId;
  readonly role: "user" | "assistant";
  /** The visible text (for a slash command, the `/name args` line, not its expansion). */
  readonly text: string;
}

/** What a host shows when it opens a stored session: its conversation and last state. */
export interface SessionView {
  /** The conversation after rewinds, without tool results; user messages are rewind targets. */
  readonly messages: readonly HistoryMessage[];
  readonly mode: PermissionMode | null;
  readonly model: string | null;
  readonly title: string | null;
  /** Everything the session spent. */
  readonly totalUsage: Usage;
  /** Lines of the log that could not be read (reported, not fatal). */
  readonly damagedLines: number;
}

function visibleText(message: Message): string {
  const texts = message.content.flatMap((block) => (block.type === "text" ? [block.text] : []));
  // A user message's first text is what the person typed (a command's is `/name args`,
  // followed by its expansion; reminders come after it).
  if (message.role === "user") return texts[0] ?? "";
  return texts.join("\n");
}

/**
 * Reads a session's log (`SessionHandle.logPath`) into the conversation a host shows on
 * resume and the rewind targets it offers. Reminders and tool results are left out; a
 * user message that holds only tool results is not a target. Rejects only when the log
 * cannot be opened; damaged lines are counted and skipped.
 */
export async function readSessionView(logPath: string): Promise<SessionView> {
  const log = await readLog(logPath);
  const folded = replay(log.records);
  const messages: HistoryMessage[] = [];
  for (const record of folded.transcript) {
    if (record.kind !== "message") continue;
    const { message } = record;
    if (message.role !== "user" && message.role !== "assistant") continue;
    if (message.content.some((b) => b.type === "toolResult")) continue;
    const text = visibleText(message).trim();
    if (text === "") continue;
    messages.push({ messageId: message.id, role: message.role, text });
  }
  return {
    messages,
    mode: folded.state.mode,
    model: folded.state.model,
    title: folded.state.title,
    totalUsage: folded.totalUsage,
    damagedLines: log.damage.length,
  };
}
