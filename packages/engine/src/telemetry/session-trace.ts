import {
  type Attributes,
  type Context,
  context,
  type Span,
  SpanStatusCode,
  type Tracer,
  trace,
} from "@opentelemetry/api";
import type { EngineEventOf, EventEnvelope } from "@z-engine/protocol";
import type { HookParent, HookSpan, HookSpanStart } from "../hooks/types.js";
import { startHookSpan } from "./hook-span.js";

/** Spans of one agent (the main one or a subagent) in the current turn. */
interface AgentSpans {
  round?: Span;
  rounds: number;
  model?: Span;
  tools: Map<string, Span>;
  /** The tool calls the current round's response asked for. */
  calls: Set<string>;
}

/** What a session's trace may record beyond names, counts and outcomes. */
export interface TraceContent {
  /** Prompt text, tool inputs and outputs on the spans (redacted first); default off. */
  readonly capture: boolean;
  /** Redacts captured text. */
  readonly redact: (text: string) => string;
}

const setError = (span: Span, kind: string, message?: string) => {
  span.setAttribute("error.type", kind);
  span.setStatus({ code: SpanStatusCode.ERROR, ...(message ? { message } : {}) });
};

/**
 * The trace of one session, built from its events: session > turn > round > model request
 * ("chat"), tool call ("execute_tool") and check spans, with the GenAI semantic conventions'
 * attributes. A session whose span does not record (no SDK registered) records nothing.
 */
export class SessionTrace {
  private readonly root: Span;
  private readonly rootContext: Context;
  private turn?: { span: Span; context: Context };
  private readonly agents = new Map<string, AgentSpans>();

  constructor(
    private readonly tracer: Tracer,
    sessionId: string,
    private readonly content: TraceContent,
  ) {
    this.root = tracer.startSpan("zeng.session", {
      attributes: { "gen_ai.conversation.id": sessionId, "zeng.session.id": sessionId },
    });
    this.rootContext = trace.setSpan(context.active(), this.root);
  }

  /** Whether an SDK records this session (false: the observer can be dropped). */
  get recording(): boolean {
    return this.root.isRecording();
  }

  private agent(envelope: EventEnvelope): AgentSpans {
    const key = envelope.agentId ?? "";
    let spans = this.agents.get(key);
    if (!spans) {
      spans = { rounds: 0, tools: new Map(), calls: new Set() };
      this.agents.set(key, spans);
    }
    return spans;
  }

  private child(
    name: string,
    parent: Span | undefined,
    attributes: Attributes,
    startTime?: number,
  ): Span {
    const ctx = parent ? trace.setSpan(context.active(), parent) : this.turnContext();
    return this.tracer.startSpan(name, { attributes, startTime }, ctx);
  }

  private turnContext(): Context {
    return this.turn?.context ?? this.rootContext;
  }

  /**
   * Starts a hook run's span under what caused it: the open tool call it names (PostToolUse),
   * else the round of the agent that asked for that call or of the subagent (PreToolUse,
   * SubagentStop), else the turn (Stop, PreCompact), else the session (SessionStart,
   * UserPromptSubmit, which runs before its turn starts).
   */
  startHook(run: HookSpanStart): HookSpan {
    return startHookSpan(this.tracer, this.hookContext(run.parent), run, this.content.redact);
  }

  private hookContext(parent: HookParent): Context {
    const id = parent.toolCallId;
    let span: Span | undefined;
    // A call id is unique in the session: it names its agent whichever journal ran the hook.
    for (const agent of id ? this.agents.values() : [])
      span ??=
        agent.tools.get(id as string) ?? (agent.calls.has(id as string) ? agent.round : undefined);
    if (!span && parent.agentId) span = this.agents.get(parent.agentId)?.round;
    return span ? trace.setSpan(context.active(), span) : this.turnContext();
  }

  /** Records what `envelope` reports. */
  observe(envelope: EventEnvelope): void {
    const e = envelope.event;
    switch (e.type) {
      case "turnStarted":
        this.startTurn(e);
        return;
      case "assistantStarted":
        this.startModel(envelope, e);
        return;
      case "assistantFinished":
        this.finishModel(envelope, e);
        return;
      case "retrying":
        this.agent(envelope).model?.addEvent("retry", {
          "zeng.retry.attempt": e.attempt,
          "error.type": e.reason,
        });
        return;
      case "toolStarted":
        this.startTool(envelope, e);
        return;
      case "toolFinished":
        this.finishTool(envelope, e);
        return;
      case "approvalRequested":
      case "approvalResolved": {
        // An approval is asked before its tool starts: the event goes on the round.
        const agent = this.agent(envelope);
        (agent.tools.get(e.toolCallId) ?? agent.round)?.addEvent(
          e.type === "approvalRequested" ? "approval.asked" : "approval.answered",
          {
            "gen_ai.tool.call.id": e.toolCallId,
            ...(e.type === "approvalResolved"
              ? { "zeng.approval.decision": e.decision.type, "zeng.approval.by": e.by }
              : { "gen_ai.tool.name": e.toolName }),
          },
        );
        return;
      }
      case "checkRecorded":
        this.check(envelope, e);
        return;
      case "turnFinished":
        this.finishTurn(envelope, e);
        return;
      default:
        return;
    }
  }

  private startTurn(e: EngineEventOf<"turnStarted">): void {
    const attributes: Attributes = { "zeng.turn.id": e.turnId };
    if (this.content.capture) attributes["zeng.turn.prompt"] = this.content.redact(e.prompt);
    const span = this.tracer.startSpan("zeng.turn", { attributes }, this.rootContext);
    this.turn = { span, context: trace.setSpan(this.rootContext, span) };
  }

  private startModel(envelope: EventEnvelope, e: EngineEventOf<"assistantStarted">): void {
    const agent = this.agent(envelope);
    agent.round?.end();
    agent.calls.clear();
    agent.rounds += 1;
    agent.round = this.child("zeng.round", undefined, {
      "zeng.round.index": agent.rounds,
      ...(envelope.agentId ? { "gen_ai.agent.id": envelope.agentId } : {}),
    });
    agent.model = this.child(`chat ${e.model}`, agent.round, {
      "gen_ai.operation.name": "chat",
      "gen_ai.request.model": e.model,
      "gen_ai.conversation.id": envelope.sessionId,
    });
  }

  private finishModel(envelope: EventEnvelope, e: EngineEventOf<"assistantFinished">): void {
    const agent = this.agent(envelope);
    for (const block of e.message.content) if (block.type === "toolUse") agent.calls.add(block.id);
    const span = agent.model;
    if (!span) return;
    agent.model = undefined;
    span.setAttributes({
      "gen_ai.response.finish_reasons": [e.stopReason],
      "gen_ai.usage.input_tokens": e.usage.input,
      "gen_ai.usage.output_tokens": e.usage.output,
      "gen_ai.usage.cache_read.input_tokens": e.usage.cacheRead,
      "gen_ai.usage.cache_creation.input_tokens": e.usage.cacheWrite,
      "zeng.cost.usd": e.usage.costUsd,
    });
    span.end();
  }

  private startTool(envelope: EventEnvelope, e: EngineEventOf<"toolStarted">): void {
    const agent = this.agent(envelope);
    const attributes: Attributes = {
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": e.toolName,
      "gen_ai.tool.call.id": e.toolCallId,
    };
    if (this.content.capture)
      attributes["gen_ai.tool.call.arguments"] = this.content.redact(JSON.stringify(e.input));
    agent.tools.set(
      e.toolCallId,
      this.child(`execute_tool ${e.toolName}`, agent.round, attributes),
    );
  }

  private finishTool(envelope: EventEnvelope, e: EngineEventOf<"toolFinished">): void {
    const tools = this.agent(envelope).tools;
    const span = tools.get(e.toolCallId);
    if (!span) return;
    tools.delete(e.toolCallId);
    span.setAttribute("zeng.tool.outcome", e.status);
    if (this.content.capture && e.display)
      span.setAttribute("gen_ai.tool.call.result", this.content.redact(JSON.stringify(e.display)));
    if (e.status === "error") setError(span, "tool_error");
    span.end();
  }

  private check(envelope: EventEnvelope, e: EngineEventOf<"checkRecorded">): void {
    const end = Date.now();
    const r = e.record;
    // The record arrives when the check has run: the span covers its measured duration.
    const span = this.child(
      `zeng.check ${r.checkId}`,
      this.agent(envelope).round,
      {
        "zeng.check.id": r.checkId,
        "zeng.check.kind": r.kind,
        "zeng.check.passed": r.passed,
        ...(r.exitCode === null ? {} : { "process.exit.code": r.exitCode }),
      },
      end - r.durationMs,
    );
    if (!r.passed) setError(span, "check_failed");
    span.end(end);
  }

  private finishTurn(envelope: EventEnvelope, e: EngineEventOf<"turnFinished">): void {
    const agent = this.agent(envelope);
    agent.round?.end();
    for (const span of agent.tools.values()) span.end();
    this.agents.delete(envelope.agentId ?? "");
    if (envelope.agentId || !this.turn) return;
    const span = this.turn.span;
    span.setAttributes({
      "zeng.turn.outcome": e.outcome,
      "zeng.turn.badge": e.badge.status,
      "zeng.turn.rounds": agent.rounds,
      "gen_ai.usage.input_tokens": e.usage.input,
      "gen_ai.usage.output_tokens": e.usage.output,
      "zeng.cost.usd": e.usage.costUsd,
    });
    if (e.outcome === "failed") setError(span, "turn_failed", e.reason);
    span.end();
    this.turn = undefined;
  }

  /** Ends every open span (the session closed). */
  close(): void {
    for (const agent of this.agents.values()) {
      agent.model?.end();
      for (const span of agent.tools.values()) span.end();
      agent.round?.end();
    }
    this.agents.clear();
    this.turn?.span.end();
    this.turn = undefined;
    this.root.end();
  }
}
