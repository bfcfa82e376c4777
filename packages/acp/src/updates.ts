import type { SessionUpdate, ToolCallContent } from "@agentclientprotocol/sdk";
import type { EngineEvent, EventEnvelope, StopReason, TodoItem } from "@z-engine/protocol";
import {
  diffLine,
  displayContent,
  finishedStatus,
  inputDiffs,
  provisionalTitle,
  toolKind,
  toolLocations,
} from "./tool-calls.js";

/** What the translator remembers of one tool call it announced. */
interface CallState {
  readonly name: string;
  readonly input: unknown;
  finished: boolean;
  inTerminal: boolean;
}

/** How a session's events are told. */
export interface TranslatorOptions {
  /** A stored session's history: finished messages carry their text (no deltas), prompts show. */
  readonly replay?: boolean;
  /** The client shows notices (`session.notices`): warnings and errors become `notice` updates. */
  readonly notices?: boolean;
}

function textChunk(
  sessionUpdate: "agent_message_chunk" | "agent_thought_chunk" | "user_message_chunk",
  text: string,
): SessionUpdate {
  return { sessionUpdate, content: { type: "text", text } };
}

function planOf(todos: readonly TodoItem[]): SessionUpdate {
  return {
    sessionUpdate: "plan",
    entries: todos.map((t) => ({ content: t.content, priority: "medium", status: t.status })),
  };
}

/**
 * Tells a session's engine events as ACP `session/update`s, remembering the tool calls it
 * announced so that each is answered once: message and thought chunks (the main agent's),
 * a `tool_call` for every call of a finished assistant message (pending, with its kind,
 * locations and, for Edit, MultiEdit and Write, the diffs of its input), `tool_call_update`s as
 * calls start and finish (a subagent's calls too), the plan from the todo list, the mode, a
 * command's output, the title and, when the client shows them, notices. Pure but for that
 * memory; never throws.
 */
export class UpdateTranslator {
  private readonly calls = new Map<string, CallState>();
  /** The stop reason of the main agent's last message in the turn (max tokens, refusal). */
  lastStopReason: StopReason | undefined;

  constructor(private readonly options: TranslatorOptions = {}) {}

  /** The updates for one event (none for most). */
  updates(envelope: EventEnvelope): SessionUpdate[] {
    const main = envelope.agentId === undefined;
    const e = envelope.event;
    switch (e.type) {
      case "textDelta":
        return main ? [textChunk("agent_message_chunk", e.text)] : [];
      case "thinkingDelta":
        return main ? [textChunk("agent_thought_chunk", e.text)] : [];
      case "turnStarted":
        return this.options.replay && main ? [textChunk("user_message_chunk", e.prompt)] : [];
      case "assistantFinished":
        return this.finishedMessage(e, main);
      case "toolStarted":
        return this.started(e);
      case "toolFinished":
        return this.finishedCall(e);
      case "todosUpdated":
        return main ? [planOf(e.todos)] : [];
      case "modeChanged":
        return [{ sessionUpdate: "current_mode_update", currentModeId: e.mode }];
      case "commandOutput":
        return [textChunk("agent_message_chunk", e.markdown)];
      case "titleChanged":
        return [{ sessionUpdate: "session_info_update", title: e.title }];
      case "notice":
        return this.options.notices && e.level !== "info"
          ? [{ sessionUpdate: "notice", severity: e.level, title: e.code, description: e.message }]
          : [];
      default:
        return [];
    }
  }

  /** The update that shows a call's client terminal in it. */
  terminal(toolCallId: string, terminalId: string): SessionUpdate[] {
    const call = this.calls.get(toolCallId);
    if (call) call.inTerminal = true;
    return [
      {
        sessionUpdate: "tool_call_update",
        toolCallId,
        content: [{ type: "terminal", terminalId }],
      },
    ];
  }

  /** Answers every announced call not finished yet (a turn that ended under it), as failed. */
  closeOpen(reason: string): SessionUpdate[] {
    const out: SessionUpdate[] = [];
    for (const [toolCallId, call] of this.calls) {
      if (call.finished) continue;
      call.finished = true;
      out.push({
        sessionUpdate: "tool_call_update",
        toolCallId,
        status: "failed",
        content: [{ type: "content", content: { type: "text", text: reason } }],
      });
    }
    return out;
  }

  /** A `tool_call` for a call no message announced (the engine's own check asks first). */
  ensureAnnounced(toolCallId: string, name: string, title: string): SessionUpdate[] {
    return this.calls.has(toolCallId)
      ? []
      : [this.announce(toolCallId, name, {}, "pending", title)];
  }

  private announce(
    toolCallId: string,
    name: string,
    input: unknown,
    status: "pending" | "in_progress",
    title = provisionalTitle(name, input),
  ): SessionUpdate {
    this.calls.set(toolCallId, { name, input, finished: false, inTerminal: false });
    const content = inputDiffs(name, input);
    return {
      sessionUpdate: "tool_call",
      toolCallId,
      title,
      kind: toolKind(name),
      status,
      rawInput: input,
      locations: toolLocations(input),
      ...(content.length > 0 ? { content } : {}),
    };
  }

  private finishedMessage(
    e: Extract<EngineEvent, { type: "assistantFinished" }>,
    main: boolean,
  ): SessionUpdate[] {
    if (main) this.lastStopReason = e.stopReason;
    const out: SessionUpdate[] = [];
    if (this.options.replay && main)
      for (const block of e.message.content) {
        if (block.type === "text" && block.text !== "")
          out.push(textChunk("agent_message_chunk", block.text));
        if (block.type === "thinking" && block.thinking !== "")
          out.push(textChunk("agent_thought_chunk", block.thinking));
      }
    for (const block of e.message.content)
      if (block.type === "toolUse" && !this.calls.has(block.id))
        out.push(this.announce(block.id, block.name, block.input, "pending"));
    return out;
  }

  private started(e: Extract<EngineEvent, { type: "toolStarted" }>): SessionUpdate[] {
    if (!this.calls.has(e.toolCallId))
      return [this.announce(e.toolCallId, e.toolName, e.input, "in_progress", e.title)];
    return [
      {
        sessionUpdate: "tool_call_update",
        toolCallId: e.toolCallId,
        status: "in_progress",
        ...(this.options.replay ? {} : { title: e.title }),
      },
    ];
  }

  private finishedCall(e: Extract<EngineEvent, { type: "toolFinished" }>): SessionUpdate[] {
    const out: SessionUpdate[] = [];
    if (!this.calls.has(e.toolCallId))
      out.push(this.announce(e.toolCallId, e.toolName, undefined, "in_progress"));
    const call = this.calls.get(e.toolCallId) as CallState;
    call.finished = true;
    const content: ToolCallContent[] | undefined =
      e.status === "denied" || e.status === "cancelled"
        ? [
            {
              type: "content",
              content: { type: "text", text: e.status === "denied" ? "Denied." : "Cancelled." },
            },
          ]
        : displayContent(e.display, call.inTerminal);
    const line = diffLine(e.display);
    const path = e.writtenPaths[0];
    out.push({
      sessionUpdate: "tool_call_update",
      toolCallId: e.toolCallId,
      status: finishedStatus(e.status),
      ...(content ? { content } : {}),
      ...(path && line !== undefined ? { locations: [{ path, line }] } : {}),
    });
    return out;
  }
}
