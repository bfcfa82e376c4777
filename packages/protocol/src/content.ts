import { z } from "zod";
import { lazily } from "./lazy.js";
import { MessageId, ToolCallId } from "./ids.js";

/** Plain text. */
export const TextBlock = lazily(() => z.object({ type: z.literal("text"), text: z.string() }));
export type TextBlock = z.infer<typeof TextBlock>;

/** An image, base64-encoded. */
export const ImageBlock = lazily(() =>
  z.object({
    type: z.literal("image"),
    mediaType: z.enum(["image/png", "image/jpeg", "image/gif", "image/webp"]),
    data: z.string(),
  }),
);
export type ImageBlock = z.infer<typeof ImageBlock>;

/**
 * The model's visible reasoning. `signature` is opaque provider data that must be sent back
 * unchanged (Anthropic requires it for thinking blocks in tool-use turns).
 */
export const ThinkingBlock = lazily(() =>
  z.object({
    type: z.literal("thinking"),
    thinking: z.string(),
    signature: z.string().optional(),
  }),
);
export type ThinkingBlock = z.infer<typeof ThinkingBlock>;

/** Reasoning the provider returned encrypted; sent back as is. */
export const RedactedThinkingBlock = lazily(() =>
  z.object({
    type: z.literal("redactedThinking"),
    data: z.string(),
  }),
);
export type RedactedThinkingBlock = z.infer<typeof RedactedThinkingBlock>;

/** A tool call the model made. `input` is the parsed JSON object the model sent. */
export const ToolUseBlock = lazily(() =>
  z.object({
    type: z.literal("toolUse"),
    id: ToolCallId,
    name: z.string(),
    input: z.unknown(),
  }),
);
export type ToolUseBlock = z.infer<typeof ToolUseBlock>;

/** What a tool result may hold. */
export const ToolResultContent = lazily(() =>
  z.discriminatedUnion("type", [TextBlock, ImageBlock]),
);
export type ToolResultContent = z.infer<typeof ToolResultContent>;

/** The answer to one tool call; every toolUse gets exactly one, in the next user message. */
export const ToolResultBlock = lazily(() =>
  z.object({
    type: z.literal("toolResult"),
    toolUseId: ToolCallId,
    content: z.array(ToolResultContent),
    isError: z.boolean(),
  }),
);
export type ToolResultBlock = z.infer<typeof ToolResultBlock>;

/** Any block of a message. */
export const ContentBlock = lazily(() =>
  z.discriminatedUnion("type", [
    TextBlock,
    ImageBlock,
    ThinkingBlock,
    RedactedThinkingBlock,
    ToolUseBlock,
    ToolResultBlock,
  ]),
);
export type ContentBlock = z.infer<typeof ContentBlock>;

export const Role = lazily(() => z.enum(["user", "assistant"]));
export type Role = z.infer<typeof Role>;

/** A message as the model sees it. */
export const ModelMessage = lazily(() => z.object({ role: Role, content: z.array(ContentBlock) }));
export type ModelMessage = z.infer<typeof ModelMessage>;

/** A message of a transcript: a model message with a stable id (rewind and task views name it). */
export const Message = lazily(() =>
  z.object({ id: MessageId, role: Role, content: z.array(ContentBlock) }),
);
export type Message = z.infer<typeof Message>;
