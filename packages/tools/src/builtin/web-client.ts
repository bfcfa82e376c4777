import type { ToolCtx } from "../ctx.js";

/** A fetched response body, cut at the size limit. */
export interface FetchedBody {
  readonly status: number;
  readonly contentType: string;
  readonly text: string;
  readonly truncated: boolean;
}

const LOOPBACK = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/;

/** True for localhost and loopback addresses (not upgraded to https). */
export function isLoopback(host: string): boolean {
  return LOOPBACK.test(host);
}

/**
 * The request's signal: the call's cancellation and the web timeout together. The timeout is
 * a timer of ours (unref'd, so it keeps no process alive), not `AbortSignal.timeout`: in Node
 * 20 `AbortSignal.any` holds its sources weakly, and a garbage collection while the request
 * waits could drop the timeout signal before it fired, leaving a stalled server's fetch
 * waiting for ever.
 */
export function webSignal(ctx: ToolCtx): AbortSignal {
  const ms = ctx.web.timeoutMs ?? 30_000;
  const timeout = new AbortController();
  const reason = () => new DOMException(`no answer within ${ms} ms`, "TimeoutError");
  setTimeout(() => timeout.abort(reason()), ms).unref();
  return AbortSignal.any([ctx.signal, timeout.signal]);
}

/** Reads at most `maxBytes` of a body. Rejects on a network error or abort. */
export async function readLimited(
  response: Response,
  maxBytes: number,
): Promise<{ text: string; truncated: boolean }> {
  const reader = response.body?.getReader();
  if (!reader) return { text: "", truncated: false };
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.length;
    if (size > maxBytes) {
      truncated = true;
      await reader.cancel();
      break;
    }
  }
  const bytes = Buffer.concat(chunks).subarray(0, maxBytes);
  return { text: new TextDecoder().decode(bytes), truncated };
}

/** GETs a URL without following redirects. Rejects on a network error, timeout or cancel. */
export async function getOnce(
  url: URL,
  ctx: ToolCtx,
  accept: string,
  extraHeaders: Readonly<Record<string, string>> = {},
): Promise<Response> {
  const doFetch = ctx.web.fetch ?? fetch;
  return doFetch(url, {
    redirect: "manual",
    signal: webSignal(ctx),
    headers: { ...extraHeaders, accept, "user-agent": ctx.web.userAgent ?? "z-engine" },
  });
}
