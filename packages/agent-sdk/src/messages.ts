// SDK messages made from the engine's events (the engine's Claude-shaped builders).
import {
  claudeAssistantMessage,
  claudeStreamEvent,
  claudeToolResultMessage,
} from "@z-engine/engine";
import type { EventEnvelope } from "@z-engine/protocol";
import type { SDKAssistantMessage, SDKPartialAssistantMessage, SDKUserMessage } from "./types.js";

/** The SDK message an event of the main agent stands for, if any. */
export function messageOf(
  envelope: EventEnvelope,
  model: string,
  partial: boolean,
): SDKAssistantMessage | SDKUserMessage | SDKPartialAssistantMessage | undefined {
  return (
    claudeAssistantMessage(envelope, model) ??
    claudeToolResultMessage(envelope) ??
    (partial ? claudeStreamEvent(envelope) : undefined)
  );
}
