import type {
  ModelErrorKind,
  ModelEvent,
  ProviderKind,
  StopReason,
  TokenUsage,
} from "@z-engine/protocol";

/** One server-sent event: an optional event name and its data (already serialised). */
export interface SseEvent {
  event?: string;
  data: string;
}

/** Splits `text` into pieces of at most `size` code points (whole text when size is unset). */
export function splitChars(text: string, size: number | undefined): string[] {
  if (!size || size <= 0) return [text];
  const chars = Array.from(text);
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(""));
  return out.length > 0 ? out : [""];
}

/** The serialised SSE text of `events`. */
export function sseText(event: SseEvent): string {
  return `${event.event ? `event: ${event.event}\n` : ""}data: ${event.data}\n\n`;
}

/** The last usage event of `events`, or zeros. */
export function lastUsage(events: readonly ModelEvent[]): TokenUsage {
  let usage: TokenUsage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
  for (const e of events) if (e.type === "usage") usage = e.usage;
  return usage;
}

/** The stop reason of `events`, if they end with `stop`. */
export function stopReasonOf(events: readonly ModelEvent[]): StopReason | undefined {
  const last = events[events.length - 1];
  return last?.type === "stop" ? last.reason : undefined;
}

/** The JSON a tool call sends as its arguments. */
export function toolArguments(e: Extract<ModelEvent, { type: "toolCall" }>): string {
  return e.rawInput ?? JSON.stringify(e.input ?? {});
}

/** The HTTP status and provider error type that stand for an error kind. */
export function statusForKind(
  kind: ModelErrorKind,
  format: ProviderKind,
): { status: number; type: string; code?: string } {
  switch (kind) {
    case "contextOverflow":
      return format === "anthropic"
        ? { status: 400, type: "invalid_request_error" }
        : { status: 400, type: "invalid_request_error", code: "context_length_exceeded" };
    case "authentication":
      return { status: 401, type: "authentication_error" };
    case "rateLimit":
      return { status: 429, type: "rate_limit_error" };
    case "overloaded":
      return format === "anthropic"
        ? { status: 529, type: "overloaded_error" }
        : { status: 503, type: "overloaded_error" };
    case "server":
      return { status: 500, type: "api_error" };
    case "timeout":
      return { status: 504, type: "timeout_error" };
    default:
      return { status: 400, type: "invalid_request_error" };
  }
}

/** The error message a provider sends for `kind` (context overflow uses the real wording). */
export function messageForKind(kind: ModelErrorKind, message: string): string {
  return kind === "contextOverflow"
    ? `prompt is too long: 210000 tokens > 200000 maximum (${message})`
    : message;
}
