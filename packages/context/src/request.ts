import type { Effort, Message, ModelRequest, SystemSection, ToolSpec } from "@z-engine/protocol";
import { cacheMarksFor } from "./cache-marks.js";
import { replaceImages } from "./images.js";
import { makeWellFormed } from "./well-formed.js";

/** What one model request is built from. */
export interface BuildRequestInput {
  readonly model: string;
  /** From `buildSystemSections`; the same bytes every round. */
  readonly system: readonly SystemSection[];
  /** The tool specs offered this round, in a stable order. */
  readonly tools: readonly ToolSpec[];
  /** The working set: the transcript after clearings and compactions, reminders included. */
  readonly messages: readonly Message[];
  readonly maxTokens: number;
  readonly effort?: Effort;
  readonly temperature?: number;
  /** Whether the model reads images (default true); false turns each image into a text placeholder. */
  readonly vision?: boolean;
}

/**
 * Builds the request for one round: the system sections and tools as given, the messages
 * made well-formed (`makeWellFormed`), and cache marks on the last cacheable system
 * section, the tool list and the last two user messages. Round after round, the system,
 * tools and earlier messages serialise to the same bytes; only the marks move. For a model
 * without `vision`, images become `IMAGE_PLACEHOLDER` text. Cheap to call
 * again after appending: unchanged messages are converted once and reused. Never throws.
 */
export function buildRequest(input: BuildRequestInput): ModelRequest {
  const wellFormed = makeWellFormed(input.messages);
  const messages = input.vision === false ? replaceImages(wellFormed) : wellFormed;
  const request: ModelRequest = {
    model: input.model,
    system: [...input.system],
    tools: [...input.tools],
    messages,
    cacheMarks: cacheMarksFor(input.system, input.tools.length, messages),
    maxTokens: input.maxTokens,
  };
  if (input.effort !== undefined) request.effort = input.effort;
  if (input.temperature !== undefined) request.temperature = input.temperature;
  return request;
}
