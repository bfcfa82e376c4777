// Transcript builders and small fakes shared by this package's tests (not part of the API).
import type {
  ArtifactRef,
  ArtifactSink,
  ContentBlock,
  Message,
  MessageId,
  ModelClient,
  ModelEvent,
  ModelMessage,
  ModelRequest,
  TextBlock,
  ToolCallId,
  ToolResultBlock,
  ToolUseBlock,
} from "@z-engine/protocol";
import { expect } from "vitest";

let seq = 0;
export const nextId = (): MessageId => `msg_${String(++seq).padStart(6, "0")}` as MessageId;

export const text = (t: string): TextBlock => ({ type: "text", text: t });
export const call = (
  id: string,
  name = "Read",
  input: unknown = { file_path: `/p/${id}.ts` },
): ToolUseBlock => ({
  type: "toolUse",
  id: id as ToolCallId,
  name,
  input,
});
export const result = (id: string, body = `output of ${id}`, isError = false): ToolResultBlock => ({
  type: "toolResult",
  toolUseId: id as ToolCallId,
  content: [{ type: "text", text: body }],
  isError,
});
export const user = (...content: ContentBlock[]): Message => ({
  id: nextId(),
  role: "user",
  content,
});
export const assistant = (...content: ContentBlock[]): Message => ({
  id: nextId(),
  role: "assistant",
  content,
});

/** One round: the assistant calls `calls` tools; the next user message answers them all. */
export function round(index: number, calls = 1, resultChars = 400): Message[] {
  const ids = Array.from({ length: calls }, (_, c) => `call_${index}_${c}`);
  return [
    assistant(text(`Round ${index}: looking further.`), ...ids.map((id) => call(id))),
    user(
      ...ids.map((id) =>
        result(id, `${id} `.repeat(Math.ceil(resultChars / (id.length + 1))).slice(0, resultChars)),
      ),
    ),
  ];
}

/** A transcript: a first prompt, then `rounds` rounds. */
export function transcript(rounds: number, calls = 1, resultChars = 400): Message[] {
  const out: Message[] = [user(text("Fix the failing test in the parser."))];
  for (let i = 0; i < rounds; i++) out.push(...round(i, calls, resultChars));
  return out;
}

/** Asserts every rule `makeWellFormed` promises. */
export function expectWellFormed(messages: readonly ModelMessage[]): void {
  if (messages.length === 0) return;
  expect(messages[0]?.role).toBe("user");
  const seenCalls = new Set<string>();
  messages.forEach((message, i) => {
    expect(message.content.length).toBeGreaterThan(0);
    if (i > 0) expect(message.role).not.toBe(messages[i - 1]?.role);
    for (const block of message.content) {
      if (block.type === "text") expect(block.text.trim()).not.toBe("");
      if (block.type === "toolResult") expect(message.role).toBe("user");
      if (block.type === "toolUse") {
        expect(message.role).toBe("assistant");
        expect(seenCalls.has(block.id)).toBe(false);
        seenCalls.add(block.id);
      }
    }
    const calls = message.content.filter((b) => b.type === "toolUse").map((b) => b.id);
    const next = messages[i + 1];
    const answered = (next?.content ?? [])
      .filter((b) => b.type === "toolResult")
      .map((b) => b.toolUseId);
    if (message.role === "assistant" && calls.length > 0) {
      expect(answered).toEqual(calls);
      // Results come first in the answering message.
      const leading = (next?.content ?? []).slice(0, calls.length);
      expect(leading.map((b) => (b.type === "toolResult" ? b.toolUseId : null))).toEqual(calls);
    }
    if (message.role === "user" && i > 0) {
      const prev = messages[i - 1];
      const prevCalls = (prev?.content ?? []).filter((b) => b.type === "toolUse").map((b) => b.id);
      const mine = message.content.filter((b) => b.type === "toolResult").map((b) => b.toolUseId);
      expect(mine).toEqual(prevCalls);
    } else if (message.role === "user") {
      expect(message.content.some((b) => b.type === "toolResult")).toBe(false);
    }
  });
}

/** An in-memory artifact sink; `failOn` names make `put` reject. */
export function memorySink(failOn: (name: string) => boolean = () => false) {
  const stored = new Map<string, string>();
  const sink: ArtifactSink = {
    async put(name, data) {
      if (failOn(name)) throw new Error(`disk full writing ${name}`);
      const body = typeof data === "string" ? data : new TextDecoder().decode(data);
      const ref = `artifact:${name}`;
      stored.set(ref, body);
      const artifact: ArtifactRef = {
        ref,
        name,
        bytes: body.length,
        mediaType: "text/plain",
        truncated: false,
      };
      return artifact;
    },
    async read(ref) {
      const body = stored.get(ref);
      return body === undefined ? undefined : new TextEncoder().encode(body);
    },
  };
  return { sink, stored };
}

/** A tiny scripted `ModelClient`: each call plays the next list of events and records the request. */
export function scriptedClient(...scripts: ModelEvent[][]) {
  const requests: ModelRequest[] = [];
  const client: ModelClient = {
    async *stream(request, options) {
      requests.push(request);
      const script = scripts.shift() ?? [
        { type: "error", error: { kind: "unknown", message: "no script left" } },
      ];
      for (const event of script) {
        if (options?.signal?.aborted) {
          yield { type: "error", error: { kind: "cancelled", message: "aborted" } };
          return;
        }
        yield event;
      }
    },
  };
  return { client, requests };
}
