import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  type ScriptReply,
  type ScriptResponse,
  takeResponse,
  type WireOptions,
} from "../model-script.js";
import type { FakeProviderRequest, WireFormat } from "./request.js";
import { play, sendError } from "./respond.js";

export type { FakeProviderRequest, WireFormat } from "./request.js";

/** Options of {@link startFakeProvider}. */
export interface FakeProviderOptions {
  /** The responses, played like `ScriptedModel`'s; `match` sees the recorded request. */
  script?: ReadonlyArray<ScriptResponse<FakeProviderRequest>>;
  /** Default chunking for every response (a response's own `wire` wins). */
  wire?: WireOptions;
  /** When set, a request that does not carry this key gets a 401 (and uses no response). */
  apiKey?: string;
  /**
   * Answers a request that no scripted response takes (the script runs out, or none matches):
   * a model that decides from what it is sent, for harnesses whose runs take an unknown number
   * of requests. Undefined falls through to the 400 of an exhausted script.
   */
  respond?: (request: FakeProviderRequest) => ScriptReply | undefined;
}

/** A running fake provider. */
export interface FakeProvider {
  /** `http://127.0.0.1:PORT` */
  readonly url: string;
  /** Base URL for the Anthropic SDK (it appends `/v1/messages`). */
  readonly anthropicBaseUrl: string;
  /** Base URL for the OpenAI SDK (`.../v1`). */
  readonly openaiBaseUrl: string;
  /** Every request received, in arrival order. */
  readonly requests: FakeProviderRequest[];
  /** Appends responses to the script. */
  push(...responses: Array<ScriptResponse<FakeProviderRequest>>): void;
  /** How many responses have not been played yet. */
  readonly remaining: number;
  /** Resolves once the connection of request `index` (0-based) is closed (finished, dropped or left by the client). */
  responseClosed(index: number): Promise<void>;
  /** Resolves with request `index` (0-based) once it has arrived. */
  requestArrived(index: number): Promise<FakeProviderRequest>;
  /** Stops the server and cuts every open connection. Never rejects. */
  close(): Promise<void>;
}

const PATHS: Record<string, WireFormat> = {
  "/v1/messages": "anthropic",
  "/v1/chat/completions": "openai",
};

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function record(req: IncomingMessage, format: WireFormat, text: string): FakeProviderRequest {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers[k] = v;
  const bearer = headers.authorization?.match(/^Bearer (.*)$/)?.[1];
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // kept as text; answered with a 400 below
  }
  const fields = typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {};
  return {
    format,
    method: req.method ?? "GET",
    path: req.url ?? "/",
    headers,
    apiKey: headers["x-api-key"] ?? bearer,
    body,
    stream: fields.stream === true,
    model: typeof fields.model === "string" ? fields.model : "",
  };
}

function sendNotFound(req: IncomingMessage, res: ServerResponse): void {
  res.writeHead(404, { "content-type": "application/json" });
  res.end(
    JSON.stringify({
      error: { type: "not_found_error", message: `no route ${req.method} ${req.url}` },
    }),
  );
}

/** Why a request is refused before any response is taken: a body that is not JSON, a wrong key. */
function refusalOf(
  recorded: FakeProviderRequest,
  apiKey: string | undefined,
): [status: number, type: string, message: string] | undefined {
  if (typeof recorded.body !== "object" || recorded.body === null)
    return [400, "invalid_request_error", "fake provider: body is not JSON"];
  if (apiKey !== undefined && recorded.apiKey !== apiKey)
    return [401, "authentication_error", "fake provider: invalid x-api-key"];
  return undefined;
}

/**
 * Starts a fake model provider on 127.0.0.1 (ephemeral port) that speaks the Anthropic
 * Messages API (`POST /v1/messages`) and OpenAI chat completions (`POST /v1/chat/completions`)
 * over real HTTP, streamed (SSE) when the request says `stream: true`, else as JSON. Each
 * request takes the next matching scripted response (like `ScriptedModel`); a request with no
 * response left gets a 400 naming the problem. Works across processes (a child can use its
 * URL). Resolves once listening; rejects only when the port cannot be bound.
 */
export async function startFakeProvider(options: FakeProviderOptions = {}): Promise<FakeProvider> {
  const script = [...(options.script ?? [])];
  const used: boolean[] = [];
  const requests: FakeProviderRequest[] = [];
  const closed: Array<Promise<void>> = [];
  const arrivals: Array<(request: FakeProviderRequest) => void> = [];
  const arrived: Array<Promise<FakeProviderRequest>> = [];
  const arrival = (index: number) => {
    for (let i = arrived.length; i <= index; i++)
      arrived.push(new Promise((resolve) => arrivals.push(resolve)));
    return arrived[index]!;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const format = PATHS[(req.url ?? "").split("?")[0] ?? ""];
    const text = await readBody(req);
    if (!format || req.method !== "POST") return sendNotFound(req, res);
    const recorded = record(req, format, text);
    requests.push(recorded);
    closed.push(new Promise((resolve) => res.once("close", () => resolve())));
    arrival(requests.length - 1);
    arrivals[requests.length - 1]?.(recorded);
    const refused = refusalOf(recorded, options.apiKey);
    if (refused) return sendError(res, format, ...refused);
    const index = takeResponse(script, used, recorded);
    const response = script[index] ?? options.respond?.(recorded);
    if (!response) {
      const message = `fake provider: no scripted response left for request #${requests.length} (${format}, model ${recorded.model})`;
      return sendError(res, format, 400, "invalid_request_error", message);
    }
    await play(res, recorded, response, options.wire ?? {});
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    anthropicBaseUrl: url,
    openaiBaseUrl: `${url}/v1`,
    requests,
    push: (...responses) => script.push(...responses),
    get remaining() {
      return script.length - used.filter(Boolean).length;
    },
    responseClosed: async (index) => {
      await arrival(index);
      await closed[index];
    },
    requestArrived: arrival,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
