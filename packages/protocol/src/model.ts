import { z } from "zod";
import { lazily } from "./lazy.js";
import { ModelMessage } from "./content.js";
import { ToolCallId } from "./ids.js";
import { TokenUsage } from "./usage.js";

/** The two wire formats a provider speaks: Anthropic's Messages API and OpenAI's Chat Completions. */
export const PROVIDER_KINDS = ["anthropic", "openai"] as const;
export type ProviderKind = (typeof PROVIDER_KINDS)[number];

/** How hard a reasoning model thinks first: a thinking budget on Anthropic, a reasoning effort elsewhere. */
export const EFFORT_LEVELS = ["low", "medium", "high", "max"] as const;
/** One of {@link EFFORT_LEVELS}. */
export const Effort = lazily(() => z.enum(EFFORT_LEVELS));
export type Effort = z.infer<typeof Effort>;

/**
 * One section of the system prompt. Sections come in a cache-stable order; `cacheable`
 * sections never change within a session.
 */
export const SystemSection = lazily(() =>
  z.object({
    id: z.string(),
    text: z.string(),
    cacheable: z.boolean(),
  }),
);
export type SystemSection = z.infer<typeof SystemSection>;

/** A tool offered to the model: its name, description and input as JSON Schema. */
export const ToolSpec = lazily(() =>
  z.object({
    name: z.string(),
    description: z.string(),
    inputSchema: z.record(z.string(), z.unknown()),
  }),
);
export type ToolSpec = z.infer<typeof ToolSpec>;

/**
 * A provider-neutral cache breakpoint: the prefix up to and including the marked item may be
 * cached. Clients translate marks (`cache_control` on Anthropic and OpenRouter) or ignore them.
 */
export const CacheMark = lazily(() =>
  z.discriminatedUnion("target", [
    z.object({ target: z.literal("system"), index: z.number().int().nonnegative() }),
    z.object({ target: z.literal("tools") }),
    z.object({ target: z.literal("message"), index: z.number().int().nonnegative() }),
  ]),
);
export type CacheMark = z.infer<typeof CacheMark>;

/** Everything a client needs for one model call. */
export const ModelRequest = lazily(() =>
  z.object({
    model: z.string(),
    system: z.array(SystemSection),
    tools: z.array(ToolSpec),
    messages: z.array(ModelMessage),
    cacheMarks: z.array(CacheMark),
    maxTokens: z.number().int().positive(),
    effort: Effort.optional(),
    temperature: z.number().optional(),
  }),
);
export type ModelRequest = z.infer<typeof ModelRequest>;

/** Why a model call failed; `retryable` kinds are retried by the clients before they surface. */
export const ModelErrorKind = lazily(() =>
  z.enum([
    "contextOverflow",
    "authentication",
    "rateLimit",
    "overloaded",
    "server",
    "network",
    "timeout",
    "invalidRequest",
    "cancelled",
    "unknown",
  ]),
);
export type ModelErrorKind = z.infer<typeof ModelErrorKind>;

/**
 * The error kind an HTTP status stands for, as every client classifies it (redirects are
 * never followed, so they are invalid requests). Never throws.
 */
export function modelErrorKindForStatus(status: number): ModelErrorKind {
  if (status >= 300 && status < 400) return "invalidRequest";
  if (status === 401 || status === 403) return "authentication";
  if (status === 413) return "contextOverflow";
  if (status === 429) return "rateLimit";
  if (status === 529 || status === 503) return "overloaded";
  if (status === 408 || status === 504) return "timeout";
  if (status >= 500) return "server";
  if (status >= 400) return "invalidRequest";
  return "unknown";
}

export const ModelError = lazily(() =>
  z.object({
    kind: ModelErrorKind,
    message: z.string(),
    status: z.number().int().optional(),
    retryAfterMs: z.number().nonnegative().optional(),
  }),
);
export type ModelError = z.infer<typeof ModelError>;

export const StopReason = lazily(() =>
  z.enum(["endTurn", "toolUse", "maxTokens", "stopSequence", "refusal", "other"]),
);
export type StopReason = z.infer<typeof StopReason>;

/**
 * What a client streams for one call. Text and thinking arrive as deltas; a tool call
 * arrives whole once its input is complete; `usage` reports the response's running totals
 * (the last one counts). Exactly one terminal event ends every stream: `stop` or `error`.
 */
export const ModelEvent = lazily(() =>
  z.discriminatedUnion("type", [
    z.object({ type: z.literal("textDelta"), text: z.string() }),
    z.object({ type: z.literal("thinkingDelta"), text: z.string() }),
    /** Closes the current thinking block, with the provider's signature when it gave one. */
    z.object({ type: z.literal("thinkingEnd"), signature: z.string().optional() }),
    z.object({ type: z.literal("redactedThinking"), data: z.string() }),
    /**
     * A complete tool call. When the model's arguments were not valid JSON, `input` is `{}`,
     * `inputError` says why and `rawInput` holds what was sent.
     */
    z.object({
      type: z.literal("toolCall"),
      id: ToolCallId,
      name: z.string(),
      input: z.unknown(),
      rawInput: z.string().optional(),
      inputError: z.string().optional(),
    }),
    z.object({ type: z.literal("usage"), usage: TokenUsage }),
    /** A failed attempt that will be retried after `delayMs`. */
    z.object({
      type: z.literal("retrying"),
      attempt: z.number().int().positive(),
      maxAttempts: z.number().int().positive(),
      delayMs: z.number().nonnegative(),
      error: ModelError,
    }),
    /** The request moves on to a fallback model (only before any answer text arrived). */
    z.object({
      type: z.literal("fallback"),
      fromModel: z.string(),
      toModel: z.string(),
      error: ModelError,
    }),
    z.object({ type: z.literal("stop"), reason: StopReason, model: z.string().optional() }),
    z.object({ type: z.literal("error"), error: ModelError }),
  ]),
);
export type ModelEvent = z.infer<typeof ModelEvent>;

/** Options of one streamed call. */
export interface StreamOptions {
  /** Aborting ends the stream with an `error` event of kind `cancelled` and closes the connection. */
  readonly signal?: AbortSignal;
  /**
   * Called once the request went out (llm's clients: when their transport reports its body
   * written, else when the response's headers arrived; a retry calls it for each attempt
   * that went out). A client may never call it; the engine then takes the stream's first
   * event as the sign.
   */
  readonly onSent?: () => void;
}

/**
 * The engine's only way to reach a model. Implementations: the Anthropic and
 * OpenAI-compatible clients in `@z-engine/llm`, testkit's `ScriptedModel`, or a host's own.
 *
 * Contract: `stream` never throws, neither when called nor while iterated; every stream ends
 * with exactly one terminal event (`stop` or `error`) and nothing after it. A consumer that
 * stops iterating early cancels the call.
 */
export interface ModelClient {
  stream(request: ModelRequest, options?: StreamOptions): AsyncIterable<ModelEvent>;
}

/** True for the two events that end a stream. */
export function isTerminalModelEvent(
  event: ModelEvent,
): event is Extract<ModelEvent, { type: "stop" | "error" }> {
  return event.type === "stop" || event.type === "error";
}
