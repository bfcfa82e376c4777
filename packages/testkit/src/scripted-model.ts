import {
  type ModelClient,
  type ModelError,
  type ModelEvent,
  type ModelRequest,
  modelErrorKindForStatus,
  type StreamOptions,
} from "@z-engine/protocol";
import {
  responseEvents,
  type ScriptFault,
  type ScriptResponse,
  takeResponse,
} from "./model-script.js";

/** Options of a {@link ScriptedModel}. */
export interface ScriptedModelOptions {
  /** Milliseconds to wait before each event of every response (default 0: no waiting at all). */
  delayMs?: number;
}

const cancelled: ModelEvent = {
  type: "error",
  error: { kind: "cancelled", message: "the request was cancelled" },
};

/** Resolves after `ms`, or early (false) when `signal` aborts. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** The error event a real client would end with after `fault`. */
export function faultError(fault: ScriptFault): ModelError {
  if ("status" in fault) {
    const retryAfterMs = fault.retryAfterMs ?? (fault.retryAfter ?? -1) * 1000;
    return {
      kind: modelErrorKindForStatus(fault.status),
      message: fault.message ?? `scripted HTTP ${fault.status}`,
      status: fault.status,
      ...(retryAfterMs >= 0 ? { retryAfterMs } : {}),
    };
  }
  if ("drop" in fault) return { kind: "network", message: "scripted dropped connection" };
  if ("endWithoutStop" in fault)
    return { kind: "network", message: "the stream ended before the response was complete" };
  if ("heartbeats" in fault) return { kind: "timeout", message: "scripted heartbeats only" };
  if ("malformed" in fault) return { kind: "server", message: "scripted malformed stream" };
  if ("redirect" in fault) return { kind: "invalidRequest", message: "scripted redirect" };
  return { kind: "timeout", message: "scripted stall" };
}

/**
 * A `ModelClient` that plays a script. Each call takes the first unused response whose
 * `match` accepts the request (responses without `match` accept any) and streams its events,
 * ending with exactly one terminal event. Every request is recorded (a deep copy) in
 * `requests`, in call order. Never throws: an exhausted script ends the stream with an
 * `error` of kind `unknown` that names the request; an aborted signal ends it with `cancelled`.
 * Faults play as the error a real client would end with; a stall waits for the abort.
 */
export class ScriptedModel implements ModelClient {
  /** Every request received, in order. */
  readonly requests: ModelRequest[] = [];
  private readonly script: ScriptResponse[];
  private readonly used: boolean[] = [];

  constructor(
    script: ReadonlyArray<ScriptResponse> = [],
    private readonly options: ScriptedModelOptions = {},
  ) {
    this.script = [...script];
  }

  /** Appends responses to the script. */
  push(...responses: ScriptResponse[]): void {
    this.script.push(...responses);
  }

  /** How many responses have not been played yet. */
  get remaining(): number {
    return this.script.length - this.used.filter(Boolean).length;
  }

  stream(request: ModelRequest, options: StreamOptions = {}): AsyncIterable<ModelEvent> {
    this.requests.push(structuredClone(request));
    const index = takeResponse(this.script, this.used, request);
    const response = index < 0 ? undefined : this.script[index];
    // As llm's clients do once the provider answers: here the request is "out" at once.
    options.onSent?.();
    return this.play(request, response, options.signal);
  }

  private async *play(
    request: ModelRequest,
    response: ScriptResponse | undefined,
    signal: AbortSignal | undefined,
  ): AsyncGenerator<ModelEvent> {
    if (response === undefined) {
      yield exhausted(request, this.requests.length);
      return;
    }
    if (response.fault && "stall" in response.fault) {
      await new Promise<void>((resolve) => {
        if (signal?.aborted) resolve();
        signal?.addEventListener("abort", () => resolve(), { once: true });
      });
      yield cancelled;
      return;
    }
    const events = response.fault
      ? [{ type: "error", error: faultError(response.fault) } satisfies ModelEvent]
      : responseEvents(response);
    const delay = response.delayMs ?? this.options.delayMs ?? 0;
    for (const event of events) {
      if (delay > 0) await pause(delay, signal);
      if (signal?.aborted) {
        yield cancelled;
        return;
      }
      yield event;
    }
  }
}

function exhausted(request: ModelRequest, count: number): ModelEvent {
  const last = request.messages[request.messages.length - 1];
  const text = last?.content.find((b) => b.type === "text");
  const hint =
    text && text.type === "text" ? `; last text: ${JSON.stringify(text.text.slice(0, 80))}` : "";
  return {
    type: "error",
    error: {
      kind: "unknown",
      message: `ScriptedModel: no scripted response left for request #${count} (model ${request.model}${hint})`,
    },
  };
}
