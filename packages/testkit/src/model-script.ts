import {
  type ModelError,
  type ModelErrorKind,
  type ModelEvent,
  type ModelRequest,
  newToolCallId,
  type StopReason,
  type TokenUsage,
  type ToolCallId,
} from "@z-engine/protocol";

/**
 * A failure the fake provider injects instead of (or part way through) a response.
 * `ScriptedModel` plays the same faults as the error events a real client would end with.
 */
export type ScriptFault =
  /** An HTTP error status, with an optional `retry-after` (seconds) or `retry-after-ms` header. */
  | { status: number; retryAfter?: number; retryAfterMs?: number; message?: string }
  /** The connection is destroyed before any byte of the response. */
  | { drop: "beforeFirstByte" }
  /** The connection is destroyed after the headers and the first `afterEvents` wire events (default 1). */
  | { drop: "afterFirstByte"; afterEvents?: number }
  /** The connection is destroyed right after the first fragment of the first tool call's input JSON. */
  | { drop: "inToolInput" }
  /** Every wire event but the stop (Anthropic `message_delta`/`message_stop`; OpenAI the finish, usage and `[DONE]`), then a clean end. */
  | { endWithoutStop: true }
  /**
   * Headers and the first `afterEvents` wire events (default 1), then only heartbeats
   * (Anthropic `ping` events, OpenAI `: keep-alive` comment lines) every `intervalMs`
   * (default 20) until the client leaves: a slow provider that never answers.
   */
  | { heartbeats: true; intervalMs?: number; afterEvents?: number }
  /** Headers and the first `afterEvents` wire events (default 1) are sent, then nothing until the client leaves. */
  | { stall: true; afterEvents?: number }
  /** The first wire event, then a line of SSE whose data is not JSON, then the end. */
  | { malformed: true }
  /** A 307 redirect to `location` (to check that keys never follow it). */
  | { redirect: string };

/** How the fake provider cuts a response into wire chunks (all optional). */
export interface WireOptions {
  /** Characters (code points) per text or thinking delta; default: one delta per scripted event. */
  textChunkChars?: number;
  /** Characters per tool-input JSON fragment; default 8. Fragments split JSON tokens on purpose. */
  jsonChunkChars?: number;
  /** Bytes per socket write; default: one write per SSE event. Small values split UTF-8 characters. */
  writeBytes?: number;
  /** OpenAI format: leave the usage chunk out even when the request asked for it (Ollama, LM Studio). */
  noUsage?: boolean;
  /** OpenAI format: send tool calls without ids, each whole in one chunk (Ollama). */
  noToolCallIds?: boolean;
  /** OpenAI format: the delta field that carries reasoning; default `reasoning_content`. */
  reasoningField?: "reasoning_content" | "reasoning";
  /**
   * Streamed responses: content this version of the wire does not define, before the scripted content: Anthropic
   * a `future_block` content block with a `future_delta`, OpenAI a chunk whose delta carries
   * only an unknown field. A client should skip it and decode the rest.
   */
  unknownBlocks?: boolean;
}

/**
 * What a scripted response plays. `events` are protocol `ModelEvent`s; when none of them is
 * terminal a `stop` is appended (`toolUse` when the response holds a tool call, else
 * `endTurn`). `fault` makes it fail; `delayMs` waits before each event (ScriptedModel) or
 * each wire event (fake provider), honouring aborts.
 */
export interface ScriptReply {
  readonly events?: readonly ModelEvent[];
  readonly fault?: ScriptFault;
  readonly delayMs?: number;
  /** Fake provider only: how this response is cut into wire chunks (overrides the server's). */
  readonly wire?: WireOptions;
}

/** A scripted response; `match` restricts which requests it answers (any, when absent). */
export interface ScriptResponse<Req = ModelRequest> extends ScriptReply {
  readonly match?: (request: Req) => boolean;
}

/** A tool call as scripts write it; the id is generated when left out. */
export interface ScriptToolCall {
  name: string;
  input: unknown;
  id?: string;
  /** Sent instead of `JSON.stringify(input)` (to script malformed arguments). */
  rawInput?: string;
}

/** Single events (or small groups) to compose responses with `reply.of(...)`. */
export const part = {
  /** A text delta. */
  text: (text: string): ModelEvent[] => [{ type: "textDelta", text }],
  /** A thinking block: its delta, then its end with a signature (default `sig-<n chars>`). */
  thinking: (text: string, signature = `sig-${text.length}`): ModelEvent[] => [
    { type: "thinkingDelta", text },
    { type: "thinkingEnd", signature },
  ],
  /** A redacted thinking block. */
  redactedThinking: (data: string): ModelEvent[] => [{ type: "redactedThinking", data }],
  /** A whole tool call; the id is a fresh `call_...` id unless given. */
  toolCall: (name: string, input: unknown, id?: string, rawInput?: string): ModelEvent[] => [
    {
      type: "toolCall",
      id: (id ?? newToolCallId()) as ToolCallId,
      name,
      input,
      ...(rawInput === undefined ? {} : { rawInput }),
    },
  ],
  /** Usage totals; missing counts are 0. */
  usage: (usage: Partial<TokenUsage>): ModelEvent[] => [
    {
      type: "usage",
      usage: {
        input: usage.input ?? 0,
        output: usage.output ?? 0,
        cacheRead: usage.cacheRead ?? 0,
        cacheWrite: usage.cacheWrite ?? 0,
      },
    },
  ],
  /** The terminal error event. */
  error: (
    kind: ModelErrorKind,
    message = `scripted ${kind}`,
    extra: Partial<ModelError> = {},
  ): ModelEvent[] => [{ type: "error", error: { ...extra, kind, message } }],
  /** The terminal stop event. */
  stop: (reason: StopReason = "endTurn"): ModelEvent[] => [{ type: "stop", reason }],
};

/** Options shared by the `reply` helpers. */
export interface ReplyOptions {
  usage?: Partial<TokenUsage>;
}

const withUsage = (events: ModelEvent[], options: ReplyOptions): ModelEvent[] =>
  options.usage ? [...events, ...part.usage(options.usage)] : events;

/** Whole responses, for the common cases. */
export const reply = {
  /** Any mix of parts, in order: `reply.of(part.thinking("..."), part.text("hi"))`. */
  of: (...parts: Array<ModelEvent | ModelEvent[]>): ScriptReply => ({
    events: parts.flat(),
  }),
  /** A text answer that ends the turn. */
  text: (text: string, options: ReplyOptions = {}): ScriptReply => ({
    events: withUsage(part.text(text), options),
  }),
  /** Thinking, then a text answer. */
  thinking: (thinking: string, text: string, options: ReplyOptions = {}) =>
    ({
      events: withUsage([...part.thinking(thinking), ...part.text(text)], options),
    }) as ScriptReply,
  /** One or several tool calls (in order), optionally after some text. */
  toolCalls: (
    calls: readonly ScriptToolCall[],
    options: ReplyOptions & { text?: string } = {},
  ): ScriptReply => ({
    events: withUsage(
      [
        ...(options.text === undefined ? [] : part.text(options.text)),
        ...calls.flatMap((c) => part.toolCall(c.name, c.input, c.id, c.rawInput)),
      ],
      options,
    ),
  }),
  /** A single tool call. */
  toolCall: (name: string, input: unknown, options: ReplyOptions & { id?: string } = {}) =>
    reply.toolCalls([{ name, input, ...(options.id ? { id: options.id } : {}) }], options),
  /** A response that is only a terminal error. */
  error: (kind: ModelErrorKind, message?: string, extra: Partial<ModelError> = {}) =>
    ({ events: part.error(kind, message, extra) }) as ScriptReply,
  /** A response that fails the way `fault` says. */
  fault: (fault: ScriptFault): ScriptReply => ({ fault }),
};

/** `response`, answering only requests that `match` accepts. */
export function when<Req = ModelRequest>(
  match: (request: Req) => boolean,
  response: ScriptReply,
): ScriptResponse<Req> {
  return { ...response, match };
}

/**
 * The events a response plays: its events up to and including the first terminal one, with
 * `stop` appended when none is terminal.
 */
export function responseEvents(response: ScriptReply): ModelEvent[] {
  const out: ModelEvent[] = [];
  for (const event of response.events ?? []) {
    out.push(event);
    if (event.type === "stop" || event.type === "error") return out;
  }
  const usesTools = out.some((e) => e.type === "toolCall");
  out.push({ type: "stop", reason: usesTools ? "toolUse" : "endTurn" });
  return out;
}

/**
 * Takes the first response not yet used whose `match` accepts `request` (responses without
 * `match` accept any). Returns its index, or -1 when none is left.
 */
export function takeResponse<Req>(
  script: ReadonlyArray<ScriptResponse<Req>>,
  used: boolean[],
  request: Req,
): number {
  for (let i = 0; i < script.length; i++) {
    if (used[i]) continue;
    const match = script[i]?.match;
    if (match && !match(request)) continue;
    used[i] = true;
    return i;
  }
  return -1;
}
