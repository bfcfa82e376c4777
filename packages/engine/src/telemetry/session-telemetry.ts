import { metrics, trace } from "@opentelemetry/api";
import type { EventEnvelope } from "@z-engine/protocol";
import type { HookSpan, HookSpanStart } from "../hooks/types.js";
import type { Redactor } from "../util/secrets.js";
import { type EngineLogger, redactingLogger, redactText } from "./logger.js";
import { type EngineInstruments, engineInstruments, recordMetrics } from "./metrics.js";
import { SessionLog } from "./session-log.js";
import { SessionTrace } from "./session-trace.js";

/** What the engine reports about its sessions, besides events. */
export interface TelemetryOptions {
  /**
   * Prompt text, tool inputs and tool results on the trace spans (redacted first). Default:
   * off, unless `OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true` in the engine's env.
   */
  readonly captureContent?: boolean;
}

/** The name and version the engine's tracer and meter report. */
export const INSTRUMENTATION_SCOPE = "@z-engine/engine";

let instruments: { meter: unknown; value: EngineInstruments } | undefined;

function instrumentsNow(): EngineInstruments {
  const meter = metrics.getMeter(INSTRUMENTATION_SCOPE);
  if (instruments?.meter !== meter) instruments = { meter, value: engineInstruments(meter) };
  return instruments.value;
}

/** How a session's telemetry is set up. */
export interface SessionTelemetryOptions {
  readonly logger?: EngineLogger;
  readonly telemetry?: TelemetryOptions;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly redactor: Redactor;
}

/**
 * One session's logs, spans and metrics, fed from its events. Built from the global
 * OpenTelemetry API (the host's SDK, or no-ops) when the session's first event arrives.
 */
export class SessionTelemetry {
  private log?: SessionLog;
  private trace?: SessionTrace;
  private started = false;
  private readonly models = new Map<string, string>();
  private closed = false;

  constructor(private readonly options: SessionTelemetryOptions) {}

  private begin(sessionId: string): void {
    this.started = true;
    instrumentsNow().sessions.add(1);
    const { logger, redactor, env, telemetry } = this.options;
    if (logger) {
      const session = redactingLogger(logger, redactor).child({ sessionId });
      session.info({ event: "sessionOpened" }, "session opened");
      this.log = new SessionLog(session);
    }
    const capture =
      telemetry?.captureContent ??
      env.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT?.toLowerCase() === "true";
    const sessionTrace = new SessionTrace(trace.getTracer(INSTRUMENTATION_SCOPE), sessionId, {
      capture,
      redact: (text) => redactText(redactor, text),
    });
    if (sessionTrace.recording) this.trace = sessionTrace;
  }

  /** Records one envelope of the session. Never throws. */
  observe(envelope: EventEnvelope): void {
    if (this.closed) return;
    if (!this.started) this.begin(envelope.sessionId);
    const e = envelope.event;
    const agent = envelope.agentId ?? "";
    if (e.type === "assistantStarted") this.models.set(agent, e.model);
    this.log?.observe(envelope);
    this.trace?.observe(envelope);
    recordMetrics(instrumentsNow(), envelope, this.models.get(agent) ?? "");
  }

  /** A hook run's span (undefined when no SDK records); a hook may run before any event. */
  startHook(run: HookSpanStart): HookSpan | undefined {
    if (this.closed) return undefined;
    if (!this.started) this.begin(run.sessionId);
    return this.trace?.startHook(run);
  }

  /** Ends the session's spans and logs its close. Safe to call twice. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.trace?.close();
    this.log?.close();
  }
}
