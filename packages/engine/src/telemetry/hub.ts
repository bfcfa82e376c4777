import type { EventEnvelope } from "@z-engine/protocol";
import type { HookSpans } from "../hooks/types.js";
import { SessionTelemetry, type SessionTelemetryOptions } from "./session-telemetry.js";

/** One session's telemetry as the engine holds it: feed it envelopes, close it once. */
export interface SessionObserver {
  observe(envelope: EventEnvelope): void;
  /** The spans of the session's hook runs. */
  readonly hooks: HookSpans;
  close(): void;
}

/** The telemetry of an engine's open sessions, so that shutdown can end what is still open. */
export class TelemetryHub {
  private readonly open = new Set<SessionTelemetry>();

  constructor(private readonly options: SessionTelemetryOptions) {}

  /** A new session's telemetry (its spans start with the session's first event). */
  session(): SessionObserver {
    const telemetry = new SessionTelemetry(this.options);
    this.open.add(telemetry);
    return {
      observe: (envelope) => telemetry.observe(envelope),
      hooks: { start: (run) => telemetry.startHook(run) },
      close: () => {
        telemetry.close();
        this.open.delete(telemetry);
      },
    };
  }

  /** Closes every session's telemetry still open. */
  closeAll(): void {
    for (const telemetry of this.open) telemetry.close();
    this.open.clear();
  }
}
