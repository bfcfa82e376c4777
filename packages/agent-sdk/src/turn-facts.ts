// What the result message needs from a turn's events: final text, rounds, denied calls.
import type { EventEnvelope } from "@z-engine/protocol";
import type { SDKPermissionDenial } from "./types.js";

/** Collects a turn's facts from the main agent's events; `reset()` starts the next turn. */
export class TurnFacts {
  text = "";
  rounds = 0;
  model: string | undefined;
  readonly denials: SDKPermissionDenial[] = [];
  private readonly inputs = new Map<string, Record<string, unknown>>();

  reset(): void {
    this.text = "";
    this.rounds = 0;
    this.denials.length = 0;
    this.inputs.clear();
  }

  /** Feeds one envelope (subagents' are ignored). */
  push(envelope: EventEnvelope): void {
    if (envelope.agentId !== undefined) return;
    const e = envelope.event;
    if (e.type === "assistantStarted") {
      this.rounds++;
      this.model = e.model;
    } else if (e.type === "assistantFinished") {
      let text = "";
      for (const b of e.message.content) {
        if (b.type === "text") text += b.text;
        if (b.type === "toolUse") this.inputs.set(b.id, (b.input ?? {}) as Record<string, unknown>);
      }
      if (text !== "") this.text = text;
    } else if (e.type === "toolFinished" && e.status === "denied") {
      this.denials.push({
        tool_name: e.toolName,
        tool_use_id: e.toolCallId,
        tool_input: this.inputs.get(e.toolCallId) ?? {},
      });
    }
  }
}
