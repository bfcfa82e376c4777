import type { EventEnvelope } from "@z-engine/protocol";

/**
 * Tracks the text of the main agent's last assistant message (subagents are left out), or
 * an engine built-in command's markdown (`zeng -p "/cost" --output-format json`).
 */
export class FinalText {
  private text = "";

  /** Feeds one envelope. */
  push(envelope: EventEnvelope): void {
    const e = envelope.event;
    if (e.type === "commandOutput") {
      this.text = e.markdown;
      return;
    }
    if (e.type !== "assistantFinished" || envelope.agentId !== undefined) return;
    const text = e.message.content
      .map((block) => (block.type === "text" ? block.text : ""))
      .join("");
    if (text !== "") this.text = text;
  }

  /** The last non-empty assistant text, or "" when there was none. */
  get value(): string {
    return this.text;
  }
}
