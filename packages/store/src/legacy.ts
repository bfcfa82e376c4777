import { type MessageId, newMessageId, type SessionId, type TextBlock } from "@z-engine/protocol";
import type { LogDamage } from "./log-reader.js";
import { type LogRecord, logRecord } from "./records.js";

/** One message of a v1 chat. */
export interface LegacyMessage {
  readonly role: "user" | "assistant";
  readonly text: string;
  readonly ts: number;
}

/** A v1 chat file, parsed: `{"title"}` first (optional), then `{"role","content","ts"}` lines. */
export interface LegacyChat {
  readonly title: string | null;
  readonly messages: readonly LegacyMessage[];
  /** Lines that could not be converted (bad JSON, an unknown role, no content). */
  readonly damage: readonly LogDamage[];
}

function textOf(content: unknown): string | null {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return null;
  const parts: string[] = [];
  for (const part of content) {
    if (typeof part === "string") parts.push(part);
    else if (typeof part === "object" && part !== null && typeof part.text === "string") {
      parts.push(part.text);
    }
  }
  return parts.length > 0 ? parts.join("\n") : null;
}

function timeOf(ts: unknown, fallback: number): number {
  if (typeof ts === "number" && Number.isFinite(ts)) return ts < 1e12 ? ts * 1000 : ts;
  if (typeof ts === "string") {
    const parsed = Date.parse(ts);
    if (Number.isFinite(parsed)) return parsed;
  }
  return fallback;
}

type LineResult = { title: string } | LegacyMessage | { problem: string };

function parseLegacyLine(line: string, isFirst: boolean, fallbackTs: number): LineResult {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return { problem: `malformed JSON: ${(error as Error).message}` };
  }
  if (typeof value !== "object" || value === null) return { problem: "not a JSON object" };
  const v = value as Record<string, unknown>;
  if (isFirst && typeof v.title === "string" && v.role === undefined) return { title: v.title };
  if (v.role !== "user" && v.role !== "assistant")
    return { problem: `unknown role ${String(v.role)}` };
  const text = textOf(v.content);
  if (text === null) return { problem: "content is not text" };
  return { role: v.role, text, ts: timeOf(v.ts, fallbackTs) };
}

/**
 * Parses the text of a v1 chat file. A torn last line and any line that cannot be converted
 * are reported in `damage`, never thrown. `fallbackTs` dates messages without a usable `ts`.
 */
export function parseLegacyChat(text: string, fallbackTs: number): LegacyChat {
  let title: string | null = null;
  const messages: LegacyMessage[] = [];
  const damage: LogDamage[] = [];
  const lines = text.split("\n");
  let lastTs = fallbackTs;
  lines.forEach((line, index) => {
    if (line.trim() === "") return;
    const result = parseLegacyLine(line, index === 0, lastTs);
    if ("problem" in result) {
      damage.push({ line: index + 1, reason: result.problem, excerpt: line.slice(0, 120) });
    } else if ("title" in result) {
      title = result.title;
    } else {
      messages.push(result);
      lastTs = result.ts;
    }
  });
  return { title, messages, damage };
}

/**
 * The v2 records of a v1 chat: the session record (naming the original file), the title,
 * then one message record per message, with fresh message ids. Never throws.
 */
export function legacyRecords(
  sessionId: SessionId,
  chat: LegacyChat,
  legacyFile: string,
  createdAt: number,
): LogRecord[] {
  const first = chat.messages[0]?.ts ?? createdAt;
  const records: LogRecord[] = [
    logRecord("session", { sessionId, projectRoot: null, legacyFile }, first),
  ];
  if (chat.title !== null) records.push(logRecord("title", { title: chat.title }, first));
  for (const message of chat.messages) {
    const content: TextBlock[] = [{ type: "text", text: message.text }];
    const id: MessageId = newMessageId();
    records.push(
      logRecord("message", { message: { id, role: message.role, content } }, message.ts),
    );
  }
  return records;
}
