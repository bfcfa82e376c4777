import {
  type ModelClient,
  type ModelEvent,
  type ModelRequest,
  newToolCallId,
} from "@z-engine/protocol";

const RUN = /RUN: (.+)$/m;

/**
 * The model the test workers run, deciding from the conversation as a real one would: a user
 * message saying `RUN: <command>` gets one Bash call of that command; a tool result (the
 * command's output, or "interrupted" after a takeover) gets a short answer; anything else,
 * "ok". It never runs a call twice on its own: after a result it answers.
 */
export function ruleModel(): ModelClient {
  return {
    async *stream(request: ModelRequest): AsyncIterable<ModelEvent> {
      const last = request.messages.at(-1);
      const blocks = last?.content ?? [];
      const result = blocks.find((b) => b.type === "toolResult");
      if (result !== undefined) {
        yield { type: "textDelta", text: "done" };
        yield { type: "stop", reason: "endTurn" };
        return;
      }
      const text = blocks.map((b) => (b.type === "text" ? b.text : "")).join("\n");
      const command = RUN.exec(text)?.[1];
      if (command === undefined) {
        yield { type: "textDelta", text: "ok" };
        yield { type: "stop", reason: "endTurn" };
        return;
      }
      yield { type: "toolCall", id: newToolCallId(), name: "Bash", input: { command } };
      yield { type: "stop", reason: "toolUse" };
    },
  };
}

/** The fast role's client: off (titles fall back to the prompt's first line). */
export const offModel: ModelClient = {
  async *stream(): AsyncIterable<ModelEvent> {
    yield { type: "error", error: { kind: "invalidRequest", message: "off" } };
  },
};
