import { type ModelError, type ModelErrorKind, modelErrorKindForStatus } from "@z-engine/protocol";

/** Codes of {@link LlmError}. */
export type LlmErrorCode = "authFile" | "catalogFetch";

/** An operational failure of this package outside a stream (streams end in error events instead). */
export class LlmError extends Error {
  override readonly name = "LlmError";
  constructor(
    readonly code: LlmErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Kinds a retry may cure. */
export const RETRYABLE_KINDS: ReadonlySet<ModelErrorKind> = new Set([
  "rateLimit",
  "overloaded",
  "server",
  "timeout",
  "network",
]);

/** True when an error of this kind is worth another attempt. */
export function isRetryable(kind: ModelErrorKind): boolean {
  return RETRYABLE_KINDS.has(kind);
}

const OVERFLOW =
  /prompt is too long|context length|context_length_exceeded|maximum context|context window|too many tokens|input is too long|reduce the length/i;

const TYPE_KINDS: Record<string, ModelErrorKind> = {
  overloaded_error: "overloaded",
  rate_limit_error: "rateLimit",
  api_error: "server",
  server_error: "server",
  authentication_error: "authentication",
  permission_error: "authentication",
  timeout_error: "timeout",
  invalid_request_error: "invalidRequest",
  not_found_error: "invalidRequest",
  request_too_large: "contextOverflow",
};

interface ErrorLike {
  name?: unknown;
  message?: unknown;
  status?: unknown;
  type?: unknown;
  code?: unknown;
  headers?: unknown;
  error?: unknown;
  cause?: unknown;
}

/** Milliseconds the provider asked to wait (`retry-after-ms`, `retry-after` seconds or date), if any. */
export function retryAfterMs(headers: unknown, now = Date.now()): number | undefined {
  if (!headers || typeof (headers as Headers).get !== "function") return undefined;
  const h = headers as Headers;
  const ms = Number.parseFloat(h.get("retry-after-ms") ?? "");
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const raw = h.get("retry-after");
  if (raw === null) return undefined;
  const seconds = Number.parseFloat(raw);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(raw);
  return Number.isFinite(date) ? Math.max(0, date - now) : undefined;
}

/** The provider's error type from an SDK error (`overloaded_error`, ...). */
function errorType(e: ErrorLike): string | undefined {
  if (typeof e.type === "string") return e.type;
  const body = e.error as { error?: { type?: unknown }; type?: unknown } | undefined;
  const nested = body?.error?.type ?? body?.type;
  return typeof nested === "string" ? nested : undefined;
}

function kindOf(e: ErrorLike, message: string): ModelErrorKind {
  // The OpenAI SDK's errors keep the name "Error": their class name tells them apart.
  const ctor = (e as { constructor?: { name?: unknown } }).constructor?.name;
  const names = new Set([
    typeof ctor === "string" ? ctor : "",
    typeof e.name === "string" ? e.name : "",
  ]);
  if (names.has("APIUserAbortError") || names.has("AbortError")) return "cancelled";
  if (names.has("APIConnectionTimeoutError")) return "timeout";
  if (names.has("APIConnectionError")) return "network";
  if (names.has("SyntaxError")) return "server";
  const status =
    typeof e.status === "number" ? e.status : typeof e.code === "number" ? e.code : undefined;
  const type = errorType(e);
  if (
    (status === 400 || type === "invalid_request_error" || status === undefined) &&
    OVERFLOW.test(message)
  )
    return "contextOverflow";
  if (e.code === "context_length_exceeded") return "contextOverflow";
  if (status !== undefined) return modelErrorKindForStatus(status);
  if (type !== undefined && TYPE_KINDS[type]) return TYPE_KINDS[type];
  if (names.has("TypeError") && /terminated|fetch failed|socket|network/i.test(message))
    return "network";
  const cause = e.cause as ErrorLike | undefined;
  if (typeof cause?.code === "string" && /^E[A-Z]+/.test(cause.code)) return "network";
  return "unknown";
}

/**
 * Classifies anything an SDK call or stream threw into a protocol `ModelError`. An aborted
 * `signal` always gives `cancelled`. Never throws.
 */
export function classifyError(error: unknown, signal?: AbortSignal): ModelError {
  const e = (typeof error === "object" && error !== null ? error : {}) as ErrorLike;
  const message = typeof e.message === "string" && e.message !== "" ? e.message : String(error);
  if (signal?.aborted) return { kind: "cancelled", message: "the request was cancelled" };
  const kind = kindOf(e, message);
  const status = typeof e.status === "number" ? e.status : undefined;
  const wait = retryAfterMs(e.headers);
  const text =
    status !== undefined && status >= 300 && status < 400
      ? `the provider answered with a redirect (${status}); it is not followed, so the key stays with its host`
      : kind === "server" && error instanceof SyntaxError
        ? `malformed response stream: ${message}`
        : message;
  return {
    kind,
    message: text,
    ...(status === undefined ? {} : { status }),
    ...(wait === undefined ? {} : { retryAfterMs: wait }),
  };
}

/** The terminal event for a cancelled call. */
export const CANCELLED: { type: "error"; error: ModelError } = {
  type: "error",
  error: { kind: "cancelled", message: "the request was cancelled" },
};
