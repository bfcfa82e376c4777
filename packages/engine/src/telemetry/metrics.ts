import type { Counter, Histogram, Meter } from "@opentelemetry/api";
import type { EventEnvelope } from "@z-engine/protocol";

/** The engine's instruments, made once per meter. */
export interface EngineInstruments {
  readonly sessions: Counter;
  readonly tokens: Histogram;
  readonly cost: Counter;
  readonly turnDuration: Histogram;
  readonly toolDuration: Histogram;
  readonly approvalsAsked: Counter;
  readonly approvalsAnswered: Counter;
  readonly errors: Counter;
}

/** Creates the instruments on `meter` (GenAI semantic-convention names where one exists). */
export function engineInstruments(meter: Meter): EngineInstruments {
  return {
    sessions: meter.createCounter("zeng.session.count", {
      description: "Sessions opened (created, resumed or forked)",
      unit: "{session}",
    }),
    tokens: meter.createHistogram("gen_ai.client.token.usage", {
      description: "Tokens per model request, by gen_ai.token.type",
      unit: "{token}",
    }),
    cost: meter.createCounter("zeng.cost", { description: "Model cost", unit: "USD" }),
    turnDuration: meter.createHistogram("zeng.turn.duration", {
      description: "Turn duration, by outcome",
      unit: "s",
    }),
    toolDuration: meter.createHistogram("gen_ai.execute_tool.duration", {
      description: "Tool call duration, by tool and outcome",
      unit: "s",
    }),
    approvalsAsked: meter.createCounter("zeng.approvals.asked", { unit: "{approval}" }),
    approvalsAnswered: meter.createCounter("zeng.approvals.answered", { unit: "{approval}" }),
    errors: meter.createCounter("zeng.errors", {
      description: "Errors, by error.type",
      unit: "{error}",
    }),
  };
}

/** Records what one envelope reports on the instruments. */
export function recordMetrics(m: EngineInstruments, envelope: EventEnvelope, model: string): void {
  const e = envelope.event;
  switch (e.type) {
    case "assistantFinished": {
      const base = { "gen_ai.operation.name": "chat", "gen_ai.request.model": model };
      m.tokens.record(e.usage.input, { ...base, "gen_ai.token.type": "input" });
      m.tokens.record(e.usage.output, { ...base, "gen_ai.token.type": "output" });
      if (e.usage.cacheRead > 0)
        m.tokens.record(e.usage.cacheRead, { ...base, "gen_ai.token.type": "cache_read" });
      if (e.usage.costUsd > 0) m.cost.add(e.usage.costUsd, base);
      return;
    }
    case "toolFinished":
      m.toolDuration.record(e.durationMs / 1000, {
        "gen_ai.tool.name": e.toolName,
        "zeng.tool.outcome": e.status,
      });
      if (e.status === "error") m.errors.add(1, { "error.type": "tool_error" });
      return;
    case "approvalRequested":
      m.approvalsAsked.add(1, { "gen_ai.tool.name": e.toolName });
      return;
    case "approvalResolved":
      m.approvalsAnswered.add(1, {
        "zeng.approval.decision": e.decision.type,
        "zeng.approval.by": e.by,
      });
      return;
    case "retrying":
      m.errors.add(1, { "error.type": e.reason });
      return;
    case "notice":
      if (e.level === "error") m.errors.add(1, { "error.type": e.code });
      return;
    case "turnFinished":
      m.turnDuration.record(e.durationMs / 1000, { "zeng.turn.outcome": e.outcome });
      if (e.outcome === "failed") m.errors.add(1, { "error.type": "turn_failed" });
      return;
    default:
      return;
  }
}
