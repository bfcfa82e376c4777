import type { ModelClient, ModelEvent, ModelRequest, ToolCallId } from "@z-engine/protocol";

/** Tool calls per turn before the answer: each turn is this many rounds plus one. */
export const CALLS_PER_TURN = 9;

/** The files the soak's Read calls cycle through (written by the soak's world). */
export const SOAK_FILES = 200;

const SUMMARY = `[soak summary] ${"the earlier rounds read files and answered, ".repeat(10)}`;

/** Tool calls of the assistant messages since the last user prompt (text, not a tool result). */
function callsThisTurn(request: ModelRequest): number {
  let calls = 0;
  for (let i = request.messages.length - 1; i >= 0; i--) {
    const m = request.messages[i];
    if (m === undefined) break;
    if (m.role === "user" && m.content.some((b) => b.type === "text")) {
      if (!m.content.some((b) => b.type === "toolResult")) break;
    }
    if (m.role === "assistant") calls += m.content.filter((b) => b.type === "toolUse").length;
  }
  return calls;
}

/** The soak's model client, and the one figure it keeps of what it is sent. */
export interface SoakModel extends ModelClient {
  /** The number of messages the last main request sent (its working set). */
  lastMessages: number;
}

/**
 * The soak's model, in process and keeping nothing of what it is sent (a scripted model that
 * recorded every request would grow with the run and hide the engine's own memory): each turn
 * reads {@link CALLS_PER_TURN} project files with the real Read tool, then answers; a request
 * without tools (the compaction summary) gets a short summary.
 */
export function soakModel(root: string): SoakModel {
  // Ids unique across models: a resumed session's history keeps the earlier ones.
  const prefix = Math.random().toString(36).slice(2, 8);
  let ids = 0;
  let file = 0;
  const model: SoakModel = {
    lastMessages: 0,
    async *stream(request: ModelRequest): AsyncIterable<ModelEvent> {
      if ((request.tools ?? []).length === 0) {
        yield { type: "textDelta", text: SUMMARY };
        yield { type: "stop", reason: "endTurn" };
        return;
      }
      model.lastMessages = request.messages.length;
      if (callsThisTurn(request) < CALLS_PER_TURN) {
        file = (file % SOAK_FILES) + 1;
        ids++;
        const input = { file_path: `${root}/files/f${file}.txt` };
        yield { type: "toolCall", id: `toolu_${prefix}${ids}` as ToolCallId, name: "Read", input };
        yield { type: "stop", reason: "toolUse" };
        return;
      }
      yield { type: "textDelta", text: "read them all" };
      yield { type: "stop", reason: "endTurn" };
    },
  };
  return model;
}
