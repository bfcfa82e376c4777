// The SDKs' `fetch`: a request over node:http / node:https instead of Node's fetch (issue 18).
// Why: Node 20 loads its fetch (undici) on first use: ~25-30 ms of CPU on the first
// request's path, and a WebAssembly HTTP parser that V8 recompiles on a background thread
// (13-30 MB of peak memory). node:http's parser is native. Only what the SDKs send is handled
// here (a string or bytes body, no redirects); anything else goes to Node's fetch.
import { channel } from "node:diagnostics_channel";
import { type IncomingMessage, type OutgoingHttpHeaders, request as httpRequest } from "node:http";
import { NodeBody, abortReason } from "./node-body.js";
import { Headers, type HeadersLike } from "./sdk-globals.js";

/** The part of `RequestInit` the SDKs pass. */
export interface NodeFetchInit {
  method?: string;
  headers?: HeadersLike | null;
  body?: unknown;
  signal?: AbortSignal | null;
  redirect?: string;
  [option: string]: unknown;
}

/** A response's body: read as it arrives, or split into web streams by `clone()`. */
export type ResponseBody = NodeBody | ReadableStream<Uint8Array>;

/** A `Response` over a node:http response: what the SDKs read of one. */
export class NodeResponse {
  readonly ok: boolean;
  readonly redirected = false;
  readonly type = "basic";
  #body: ResponseBody | null;
  #used = false;

  constructor(
    body: ResponseBody | null,
    readonly status: number,
    readonly statusText: string,
    readonly headers: InstanceType<typeof Headers>,
    readonly url: string,
  ) {
    this.#body = body;
    this.ok = status >= 200 && status < 300;
  }

  /** Read it as an async iterable (what the SDKs do) or as a web stream (see NodeBody). */
  get body(): ResponseBody | null {
    return this.#body;
  }

  get bodyUsed(): boolean {
    return this.#used;
  }

  /** A second response over the same body (the body is split with `tee`). */
  clone(): NodeResponse {
    let copy: ResponseBody | null = null;
    if (this.#body) [this.#body, copy] = this.#body.tee();
    return new NodeResponse(copy, this.status, this.statusText, this.headers, this.url);
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = await this.#bytes();
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }

  async text(): Promise<string> {
    return new TextDecoder().decode(await this.#bytes());
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  async #bytes(): Promise<Buffer> {
    if (this.#used) throw new TypeError("Body is unusable: Body has already been read");
    this.#used = true;
    if (!this.#body) return Buffer.alloc(0);
    const chunks: Uint8Array[] = [];
    for await (const chunk of this.#body) chunks.push(chunk);
    return Buffer.concat(chunks);
  }
}

/** node:http's headers from the SDK's, with a body's length when it has one. */
function outgoingHeaders(init: HeadersLike | null | undefined, body: Buffer | undefined) {
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of new Headers(init)) headers[name] = value;
  if (body !== undefined) headers["content-length"] = body.length;
  return headers;
}

/** The response body, decompressed as fetch would; it fails as fetch's does (see NodeBody). */
async function bodyOf(
  response: IncomingMessage,
  signal: AbortSignal | null | undefined,
): Promise<NodeBody> {
  const encoding = String(response.headers["content-encoding"] ?? "").toLowerCase();
  let source: ConstructorParameters<typeof NodeBody>[1] = response;
  if (/^(gzip|x-gzip|deflate|br)$/.test(encoding)) {
    const zlib = await import("node:zlib");
    const decoder =
      encoding === "br"
        ? zlib.createBrotliDecompress()
        : encoding === "deflate"
          ? zlib.createInflate()
          : zlib.createGunzip();
    response.on("error", (error) => decoder.destroy(error));
    source = response.pipe(decoder);
  }
  // A connection that closes before the body ended fails the body (a decompressor would
  // otherwise wait for the rest).
  response.on("close", () => {
    if (!response.complete)
      source.destroy(new Error("the connection closed before the body ended"));
  });
  return new NodeBody(response, source, signal);
}

const NULL_BODY = new Set([101, 204, 205, 304]);

/**
 * The diagnostics channel on which Node's fetch (undici) reports a request's body written:
 * `nodeFetch` reports its requests there too, with the fields a watcher reads of undici's
 * (`request.origin`, `request.path`, `request.method`), so that a watcher of "the request went
 * out" sees requests of both transports.
 */
export const BODY_SENT_CHANNEL = "undici:request:bodySent";
const bodySent = channel(BODY_SENT_CHANNEL);

async function transportFor(protocol: string): Promise<typeof httpRequest> {
  if (protocol === "http:") return httpRequest;
  return (await import("node:https")).request;
}

/**
 * `fetch` for the SDKs over node:http/node:https: `http:` and `https:` URLs, a string or bytes
 * body (or none), `redirect: "manual"` (a 3xx is returned as it is). Anything else (a stream
 * body, following redirects, another scheme) is passed to Node's fetch. Rejects as fetch
 * does: with the signal's reason once aborted, else a `TypeError("fetch failed")` whose
 * `cause` is the socket's error; a body that breaks off fails with `TypeError("terminated")`.
 * No `accept-encoding` is sent; a compressed body is decoded all the same. Connections are
 * kept alive (Node's global agents). Once the body is written it is reported on
 * `BODY_SENT_CHANNEL`, as Node's fetch reports its own.
 */
export async function nodeFetch(
  input: string | URL | { url: string },
  init: NodeFetchInit = {},
): Promise<NodeResponse | Response> {
  const href = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
  const url = new URL(href);
  const { body, signal } = init;
  const plainBody = body === undefined || body === null || typeof body === "string";
  if (
    (url.protocol !== "http:" && url.protocol !== "https:") ||
    init.redirect !== "manual" ||
    !(plainBody || body instanceof Uint8Array)
  )
    return fetch(href, init as RequestInit);
  const bytes =
    body === undefined || body === null ? undefined : Buffer.from(body as string | Uint8Array);
  const request = await transportFor(url.protocol);
  // Checked after the await: an abort while node:https loaded fires no listener below.
  if (signal?.aborted) throw abortReason(signal);
  return new Promise<NodeResponse>((resolve, reject) => {
    const method = (init.method ?? "GET").toUpperCase();
    const outgoing = request(url, {
      method,
      headers: outgoingHeaders(init.headers, bytes),
    });
    const onAbort = () => outgoing.destroy(abortReason(signal as AbortSignal) as Error);
    signal?.addEventListener("abort", onAbort, { once: true });
    outgoing.on("error", (error) => {
      signal?.removeEventListener("abort", onAbort);
      reject(
        signal?.aborted ? abortReason(signal) : new TypeError("fetch failed", { cause: error }),
      );
    });
    outgoing.on("response", (response) => {
      const status = response.statusCode ?? 0;
      const headers = new Headers();
      const raw = response.rawHeaders;
      for (let i = 0; i + 1 < raw.length; i += 2)
        headers.append(raw[i] as string, raw[i + 1] as string);
      const empty = NULL_BODY.has(status) || init.method === "HEAD";
      if (empty) response.resume();
      const made = empty ? Promise.resolve(null) : bodyOf(response, signal);
      made.then(
        (bodyRead) =>
          resolve(
            new NodeResponse(bodyRead, status, response.statusMessage ?? "", headers, url.href),
          ),
        reject,
      );
      response.on("close", () => signal?.removeEventListener("abort", onAbort));
    });
    outgoing.on("finish", () => {
      if (!bodySent.hasSubscribers) return;
      const request = { origin: url.origin, path: `${url.pathname}${url.search}`, method };
      bodySent.publish({ request });
    });
    outgoing.end(bytes);
  });
}
