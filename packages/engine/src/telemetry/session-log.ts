import type { EventEnvelope } from "@z-engine/protocol";
import type { EngineLogger } from "./logger.js";

/**
 * Writes one session's events as log lines: a child logger carries the session id, and one
 * per turn the turn id too (and the agent id for a subagent's lines). No prompt text, tool
 * input or output is logged; messages are the engine's own (notices, failure reasons), and
 * the logger given is already behind the secret screen.
 */
export class SessionLog {
  private readonly turns = new Map<string, EngineLogger>();
  /** The main agent's running turn: some of its events (check records) carry no turn id. */
  private current?: string;

  constructor(private readonly session: EngineLogger) {}

  /** The logger for an envelope: the session's, or its turn's and agent's. */
  private loggerOf(envelope: EventEnvelope): EngineLogger {
    const turnId = envelope.turnId ?? this.current;
    if (!turnId) return this.session;
    const key = `${turnId}/${envelope.agentId ?? ""}`;
    let logger = this.turns.get(key);
    if (!logger) {
      logger = this.session.child({
        turnId,
        ...(envelope.agentId ? { agentId: envelope.agentId } : {}),
      });
      this.turns.set(key, logger);
    }
    return logger;
  }

  /** Logs the session's close. */
  close(): void {
    this.session.info({ event: "sessionClosed" }, "session closed");
  }

  /** Logs what `envelope` reports (most events are not logged). */
  observe(envelope: EventEnvelope): void {
    const e = envelope.event;
    if (e.type === "turnStarted" && !envelope.agentId) this.current = e.turnId;
    const log = this.loggerOf(envelope);
    switch (e.type) {
      case "turnStarted":
        log.info({ event: e.type }, "turn started");
        return;
      case "assistantFinished":
        log.debug({ event: e.type, stopReason: e.stopReason, usage: e.usage }, "model response");
        return;
      case "toolFinished":
        log.info(
          { event: e.type, tool: e.toolName, status: e.status, durationMs: e.durationMs },
          "tool finished",
        );
        return;
      case "approvalRequested":
        log.info({ event: e.type, tool: e.toolName }, "approval requested");
        return;
      case "approvalResolved":
        log.info({ event: e.type, decision: e.decision.type, by: e.by }, "approval answered");
        return;
      case "retrying":
        log.warn(
          { event: e.type, attempt: e.attempt, kind: e.reason, delayMs: e.delayMs },
          e.message,
        );
        return;
      case "notice":
        log[e.level === "error" ? "error" : e.level === "warning" ? "warn" : "info"](
          { event: e.type, code: e.code },
          e.message,
        );
        return;
      case "checkRecorded":
        log.info(
          {
            event: e.type,
            checkId: e.record.checkId,
            passed: e.record.passed,
            durationMs: e.record.durationMs,
          },
          "check recorded",
        );
        return;
      case "turnFinished":
        this.turns.delete(`${envelope.turnId ?? this.current}/${envelope.agentId ?? ""}`);
        if (!envelope.agentId) this.current = undefined;
        log[e.outcome === "failed" ? "error" : "info"](
          {
            event: e.type,
            outcome: e.outcome,
            usage: e.usage,
            badge: e.badge.status,
            durationMs: e.durationMs,
            ...(e.reason ? { reason: e.reason } : {}),
          },
          "turn finished",
        );
        return;
      default:
        return;
    }
  }
}
