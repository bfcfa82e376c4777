// `zeng -p` input from stdin: the whole of it as the prompt, or (`--input-format stream-json`)
// Claude Code's user messages, one JSON line each.
import { createInterface } from "node:readline";
import type { SessionHandle, TurnSummary } from "@z-engine/engine";
import { DialectError } from "./dialect-setup.js";

/** What stdin is to these readers. */
export type Stdin = NodeJS.ReadableStream & { readonly isTTY?: boolean };

/** The prompt on stdin (`-p` without one). Throws DialectError on a terminal or for empty input. */
export async function stdinPrompt(stdin: Stdin): Promise<string> {
  if (stdin.isTTY) throw new DialectError("-p needs a prompt: after -p, or on stdin");
  let text = "";
  stdin.setEncoding("utf8");
  for await (const chunk of stdin) text += chunk as string;
  if (text.trim() === "") throw new DialectError("-p needs a prompt: stdin was empty");
  return text.replace(/\n$/, "");
}

function textOf(content: unknown): string | undefined {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return undefined;
  const parts = content
    .filter(
      (b): b is { type: "text"; text: string } => b?.type === "text" && typeof b.text === "string",
    )
    .map((b) => b.text);
  return parts.length > 0 ? parts.join("\n") : undefined;
}

/**
 * The text of one stream-json input line (`{"type":"user","message":{"role":"user","content":...}}`,
 * content a string or text blocks), or the reason it is not one.
 */
export function userMessageText(
  line: string,
): { ok: true; text: string } | { ok: false; error: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch (error) {
    return { ok: false, error: `not JSON: ${(error as Error).message}` };
  }
  const message = (parsed as { type?: unknown; message?: { content?: unknown } } | null) ?? {};
  if (message.type !== "user") return { ok: false, error: 'expected {"type":"user",...}' };
  const text = textOf(message.message?.content);
  return text === undefined || text.trim() === ""
    ? { ok: false, error: "the user message has no text" }
    : { ok: true, text };
}

/** The user messages on stdin, in order; a bad line is reported through `warn` and skipped. */
async function* userMessages(
  stdin: Stdin,
  warn: (message: string) => void,
): AsyncGenerator<string> {
  let n = 0;
  for await (const line of createInterface({ input: stdin, crlfDelay: Number.POSITIVE_INFINITY })) {
    n++;
    if (line.trim() === "") continue;
    const read = userMessageText(line);
    if (read.ok) yield read.text;
    else warn(`--input-format stream-json: line ${n} skipped: ${read.error}`);
  }
}

/**
 * `--input-format stream-json`: the first user message starts a turn; each later one steers
 * the running turn (or, between turns, starts the next). Resolves, once stdin has ended and
 * the session is idle, with the last turn's summary. Throws DialectError when stdin ends
 * before any message.
 */
export async function runStreamInput(
  session: SessionHandle,
  stdin: Stdin,
  warn: (message: string) => void,
): Promise<TurnSummary> {
  const messages = userMessages(stdin, warn);
  const first = await messages.next();
  if (first.done) throw new DialectError("--input-format stream-json: no user message on stdin");
  let last: TurnSummary | undefined;
  let watching = true;
  // Every turn's end, the ones steering started between turns too (registered before each can end).
  const watch = async () => {
    while (watching) last = await session.nextTurnEnd();
  };
  void watch().catch(() => {});
  const firstTurn = session.run(first.value);
  for await (const text of messages) session.send({ type: "steer", text });
  const firstSummary = await firstTurn;
  await session.idle();
  watching = false;
  return last ?? firstSummary;
}
