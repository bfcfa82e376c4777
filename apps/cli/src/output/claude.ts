import type { EventEnvelope } from "@z-engine/protocol";
import {
  assistantLine,
  type InitFacts,
  initLine,
  resultMessage,
  streamEventLine,
  toolResultLine,
} from "./claude-messages.js";
import { FinalText } from "./final-text.js";
import type { Io, OutputFormatter, RunEnd } from "./result.js";

/** How the Claude-shaped formats are asked for. */
export interface ClaudeOutputOptions {
  /** true: `claude-stream-json` (a line per message); false: `claude-json` (the result only). */
  readonly stream: boolean;
  /** `stream_event` lines for text deltas (`--include-partial-messages`). */
  readonly partial: boolean;
  /** The init line's facts; its model is the first request's (this one when none ran). */
  readonly facts: InitFacts;
  /** More facts once the session is open (read when the init line is written). */
  readonly session?: () => Partial<InitFacts>;
}

/**
 * Claude Code's output shapes: stream-json writes the `system` init line, then `assistant`
 * messages, `user` tool results and (with partial messages) `stream_event` deltas of the
 * main agent as they happen, then the `result`; json writes only the `result`.
 */
export function claudeOutput(io: Io, options: ClaudeOutputOptions): OutputFormatter {
  const final = new FinalText();
  const write = (line: Record<string, unknown> | undefined) => {
    if (line && options.stream) io.stdout(`${JSON.stringify(line)}\n`);
  };
  let sessionId: string | undefined;
  let model = options.facts.model;
  let rounds = 0;
  const calls = new Map<string, { name: string; input: unknown }>();
  const denials: Array<Record<string, unknown>> = [];
  const track = (envelope: EventEnvelope) => {
    const e = envelope.event;
    if (e.type === "assistantFinished")
      for (const b of e.message.content)
        if (b.type === "toolUse") calls.set(b.id, { name: b.name, input: b.input });
    if (e.type === "toolFinished" && e.status === "denied") {
      const call = calls.get(e.toolCallId);
      denials.push({
        tool_name: e.toolName,
        tool_use_id: e.toolCallId,
        tool_input: call?.input ?? {},
      });
    }
  };
  const init = (id: string) => {
    if (sessionId !== undefined) return;
    sessionId = id;
    write(initLine(id, { ...options.facts, ...options.session?.(), model }));
  };
  return {
    onEvent: (envelope: EventEnvelope) => {
      final.push(envelope);
      if (envelope.agentId !== undefined) return;
      track(envelope);
      const e = envelope.event;
      if (e.type === "assistantStarted") {
        model = e.model;
        rounds++;
        init(envelope.sessionId);
      }
      if (e.type === "assistantFinished") write(assistantLine(envelope, model));
      else if (e.type === "toolFinished") write(toolResultLine(envelope));
      else if (e.type === "textDelta" && options.partial) write(streamEventLine(envelope));
    },
    finish: (end: RunEnd) => {
      init(end.sessionId);
      io.stdout(`${JSON.stringify(resultMessage(end, final.value, rounds, denials))}\n`);
    },
  };
}
