import type { ServerResponse } from "node:http";
import {
  responseEvents,
  type ScriptFault,
  type ScriptResponse,
  type WireOptions,
} from "../model-script.js";
import { anthropicErrorBody, anthropicMessage, anthropicSse } from "./anthropic-wire.js";
import { messageForKind, type SseEvent, sseText, statusForKind } from "./chunks.js";
import { openAiCompletion, openAiErrorBody, openAiSse } from "./openai-wire.js";
import type { FakeProviderRequest, WireFormat } from "./request.js";

export function sendError(
  res: ServerResponse,
  format: WireFormat,
  status: number,
  type: string,
  message: string,
  extra: Record<string, string> = {},
  code?: string,
): void {
  const body =
    format === "anthropic"
      ? anthropicErrorBody(type, message)
      : openAiErrorBody(type, message, code);
  res.writeHead(status, { "content-type": "application/json", ...extra });
  res.end(body);
}

/** Waits `ms`, or until the response closes (false). */
function wait(ms: number, res: ServerResponse): Promise<boolean> {
  return new Promise((resolve) => {
    if (res.destroyed || res.writableEnded) return resolve(false);
    const timer = setTimeout(() => {
      res.off("close", onClose);
      resolve(true);
    }, ms);
    const onClose = () => {
      clearTimeout(timer);
      resolve(false);
    };
    res.once("close", onClose);
  });
}

async function writeSse(
  res: ServerResponse,
  events: SseEvent[],
  wire: WireOptions,
  delayMs: number,
): Promise<boolean> {
  for (const event of events) {
    if (delayMs > 0 && !(await wait(delayMs, res))) return false;
    if (res.destroyed) return false;
    const bytes = Buffer.from(sseText(event), "utf8");
    const size = wire.writeBytes && wire.writeBytes > 0 ? wire.writeBytes : bytes.length;
    for (let i = 0; i < bytes.length; i += size) {
      res.write(bytes.subarray(i, i + size));
      if (size < bytes.length) await new Promise((r) => setImmediate(r));
      if (res.destroyed) return false;
    }
  }
  return true;
}

function sseHead(res: ServerResponse): void {
  res.socket?.setNoDelay(true);
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
}

/** Sends `events`, then destroys the connection once they have reached the client. */
async function dropAfter(res: ServerResponse, events: SseEvent[]): Promise<void> {
  sseHead(res);
  await writeSse(res, events, {}, 0);
  // Let the bytes reach the client before the connection goes.
  await new Promise<void>((resolve) => res.write("", () => resolve()));
  res.socket?.destroy();
}

/** The index of the first wire event carrying a fragment of a tool call's input (the last one when none does). */
function firstToolInput(events: readonly SseEvent[]): number {
  const i = events.findIndex(
    (e) =>
      e.data.includes('"input_json_delta"') ||
      (e.data.includes('"tool_calls"') && /"arguments":"[^"]/.test(e.data)),
  );
  return i === -1 ? events.length - 1 : i;
}

/** False for the wire events that end a response. */
function notStop(e: SseEvent): boolean {
  if (e.event === "message_delta" || e.event === "message_stop" || e.data === "[DONE]")
    return false;
  return !/"finish_reason":"|"usage":\{"prompt_tokens"/.test(e.data);
}

/** Heartbeats every `intervalMs` until the client leaves (or the server closes). */
async function heartbeats(res: ServerResponse, format: WireFormat, intervalMs: number) {
  const beat =
    format === "anthropic" ? 'event: ping\ndata: {"type":"ping"}\n\n' : ": keep-alive\n\n";
  while (!res.destroyed && (await wait(intervalMs, res))) res.write(beat);
}

async function playFault(
  res: ServerResponse,
  req: FakeProviderRequest,
  fault: ScriptFault,
  events: SseEvent[],
): Promise<void> {
  if ("status" in fault) {
    const headers: Record<string, string> = {};
    if (fault.retryAfter !== undefined) headers["retry-after"] = String(fault.retryAfter);
    if (fault.retryAfterMs !== undefined) headers["retry-after-ms"] = String(fault.retryAfterMs);
    const type =
      fault.status === 529
        ? "overloaded_error"
        : fault.status === 429
          ? "rate_limit_error"
          : "api_error";
    sendError(
      res,
      req.format,
      fault.status,
      type,
      fault.message ?? `fake HTTP ${fault.status}`,
      headers,
    );
  } else if ("redirect" in fault) {
    res.writeHead(307, { location: fault.redirect });
    res.end();
  } else if ("drop" in fault && fault.drop === "beforeFirstByte") {
    res.socket?.destroy();
  } else if ("drop" in fault) {
    const upTo =
      fault.drop === "inToolInput" ? firstToolInput(events) + 1 : (fault.afterEvents ?? 1);
    await dropAfter(res, events.slice(0, upTo));
  } else if ("endWithoutStop" in fault) {
    sseHead(res);
    if (await writeSse(res, events.filter(notStop), {}, 0)) res.end();
  } else if ("heartbeats" in fault) {
    sseHead(res);
    await writeSse(res, events.slice(0, fault.afterEvents ?? 1), {}, 0);
    await heartbeats(res, req.format, fault.intervalMs ?? 20);
  } else if ("stall" in fault) {
    sseHead(res);
    await writeSse(res, events.slice(0, fault.afterEvents ?? 1), {}, 0);
    // Nothing more: the client's timeout or abort ends it (or close()).
  } else {
    sseHead(res);
    await writeSse(res, events.slice(0, 1), {}, 0);
    const name = req.format === "anthropic" ? "event: content_block_delta\n" : "";
    res.end(`${name}data: {"oops": not json\n\n`);
  }
}

export async function play(
  res: ServerResponse,
  req: FakeProviderRequest,
  response: ScriptResponse<FakeProviderRequest>,
  defaults: WireOptions,
): Promise<void> {
  const wire = { ...defaults, ...response.wire };
  const events = responseEvents(response);
  const body = req.body as Record<string, unknown>;
  const includeUsage =
    (body.stream_options as { include_usage?: unknown } | undefined)?.include_usage === true;
  const sse = () =>
    req.format === "anthropic"
      ? anthropicSse(events, req.model, wire)
      : openAiSse(events, req.model, wire, includeUsage);
  if (response.fault) return playFault(res, req, response.fault, sse());
  const first = events[0];
  if (first?.type === "error") {
    const { status, type, code } = statusForKind(first.error.kind, req.format);
    const headers: Record<string, string> =
      first.error.retryAfterMs === undefined
        ? {}
        : { "retry-after-ms": String(first.error.retryAfterMs) };
    return sendError(
      res,
      req.format,
      status,
      type,
      messageForKind(first.error.kind, first.error.message),
      headers,
      code,
    );
  }
  if (!req.stream) {
    const json =
      req.format === "anthropic"
        ? anthropicMessage(events, req.model)
        : openAiCompletion(events, req.model, wire);
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(json));
    return;
  }
  sseHead(res);
  if (await writeSse(res, sse(), wire, response.delayMs ?? 0)) res.end();
}
