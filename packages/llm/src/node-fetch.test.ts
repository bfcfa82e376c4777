import { execFile } from "node:child_process";
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { NodeBody } from "./node-body.js";
import { BODY_SENT_CHANNEL, NodeResponse, nodeFetch } from "./node-fetch.js";
import { FormData, Headers } from "./sdk-globals.js";

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;
let server: Server | undefined;

afterEach(async () => {
  server?.closeAllConnections();
  server?.close();
  server = undefined;
});

/** A real HTTP server on a free port that answers with `handler`; resolves with its base URL. */
async function serve(handler: Handler): Promise<string> {
  server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8").on("data", (c: string) => {
      body += c;
    });
    req.on("end", () => handler(req, res, body));
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const manual = { redirect: "manual" } as const;

describe("Headers (sdk-globals)", () => {
  it("is case-insensitive, joins appended values, iterates sorted and lower-cased", () => {
    const h = new Headers({ "X-B": "1", "x-a": ["2", "3"] });
    h.append("X-B", "4");
    expect(h.get("x-b")).toBe("1, 4");
    expect([...h]).toEqual([
      ["x-a", "2, 3"],
      ["x-b", "1, 4"],
    ]);
    expect(new Headers(h).get("X-A")).toBe("2, 3");
    expect(new Headers([["K", "v"]]).has("k")).toBe(true);
    h.delete("X-A");
    expect(h.has("x-a")).toBe(false);
    expect(() => new Headers([["only-a-name"]])).toThrow(TypeError);
  });

  it("FormData answers instanceof by tag, without Node's fetch", () => {
    expect({} instanceof FormData).toBe(false);
    expect((["text"] as unknown[])[0] instanceof FormData).toBe(false);
    expect(new globalThis.FormData() instanceof FormData).toBe(true);
  });
});

describe("nodeFetch", () => {
  it("sends the method, headers and body, and returns status, headers and body", async () => {
    const seen: { method?: string; headers?: IncomingMessage["headers"]; body?: string } = {};
    const base = await serve((req, res, body) => {
      Object.assign(seen, { method: req.method, headers: req.headers, body });
      res.writeHead(201, "Made", { "content-type": "application/json", "request-id": "r1" });
      res.end('{"ok":true}');
    });
    const response = (await nodeFetch(`${base}/v1/x`, {
      ...manual,
      method: "post",
      headers: new Headers({ "X-Api-Key": "k", "content-type": "application/json" }),
      body: '{"a":"\u00e9"}',
    })) as NodeResponse;
    expect(response).toBeInstanceOf(NodeResponse);
    expect(seen.method).toBe("POST");
    expect(seen.headers?.["x-api-key"]).toBe("k");
    expect(seen.headers?.["content-length"]).toBe(String(Buffer.byteLength('{"a":"\u00e9"}')));
    expect(seen.body).toBe('{"a":"\u00e9"}');
    expect([response.status, response.statusText, response.ok]).toEqual([201, "Made", true]);
    expect(response.headers.get("Request-Id")).toBe("r1");
    expect(response.url).toBe(`${base}/v1/x`);
    expect(await response.json()).toEqual({ ok: true });
    expect(response.bodyUsed).toBe(true);
    await expect(response.text()).rejects.toThrow(TypeError);
  });

  it("reports the body written on Node's fetch's channel, before the response", async () => {
    let reported: (message: unknown) => void = () => undefined;
    const report = new Promise<unknown>((resolve) => {
      reported = resolve;
    });
    const onReport = (message: unknown) => reported(message);
    subscribe(BODY_SENT_CHANNEL, onReport);
    try {
      // The server answers only once the report came: a report after the response would hang.
      const base = await serve((_req, res) => void report.then(() => res.end("late")));
      const response = (await nodeFetch(`${base}/v1/messages?beta=true`, {
        ...manual,
        method: "POST",
        body: "{}",
      })) as NodeResponse;
      expect(await report).toEqual({
        request: {
          origin: new URL(base).origin,
          path: "/v1/messages?beta=true",
          method: "POST",
        },
      });
      expect(await response.text()).toBe("late");
    } finally {
      unsubscribe(BODY_SENT_CHANNEL, onReport);
    }
  });

  it("streams the body as it arrives and decodes gzip", async () => {
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const base = await serve((req, res) => {
      if (req.url === "/gz") {
        res.writeHead(200, { "content-encoding": "gzip" });
        res.end(gzipSync("squeezed"));
        return;
      }
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write("first ");
      void released.then(() => res.end("second"));
    });
    const response = (await nodeFetch(`${base}/sse`, manual)) as NodeResponse;
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe("first ");
    release();
    let rest = "";
    for (let r = await reader.read(); !r.done; r = await reader.read())
      rest += new TextDecoder().decode(r.value);
    expect(rest).toBe("second");
    const gz = (await nodeFetch(`${base}/gz`, manual)) as NodeResponse;
    expect(await gz.text()).toBe("squeezed");
    // Cancelling a compressed body part-way is no error, and nothing arrives after.
    const big = (await nodeFetch(`${base}/gz`, manual)) as NodeResponse;
    await expect(big.body?.cancel()).resolves.toBeUndefined();
  });

  it("gives a null body for 204 and returns a 3xx as it is", async () => {
    const base = await serve((req, res) => {
      if (req.url === "/none") res.writeHead(204).end();
      else res.writeHead(302, { location: "/elsewhere" }).end("moved");
    });
    const none = (await nodeFetch(`${base}/none`, manual)) as NodeResponse;
    expect([none.status, none.body]).toEqual([204, null]);
    const moved = (await nodeFetch(`${base}/r`, manual)) as NodeResponse;
    expect([moved.status, moved.ok, moved.headers.get("location")]).toEqual([
      302,
      false,
      "/elsewhere",
    ]);
    expect(await moved.clone().text()).toBe("moved");
    expect(await moved.text()).toBe("moved");
  });

  it("rejects as fetch does: TypeError with the socket's error, or the abort reason", async () => {
    const closed = await serve((_req, res) => res.end());
    server?.close();
    server = undefined;
    const refused = await nodeFetch(closed, manual).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(TypeError);
    expect((refused as Error).message).toBe("fetch failed");
    expect(((refused as Error).cause as NodeJS.ErrnoException).code).toBe("ECONNREFUSED");

    const base = await serve(() => undefined);
    const controller = new AbortController();
    const pending = nodeFetch(base, { ...manual, signal: controller.signal });
    controller.abort();
    expect(((await pending.catch((e: unknown) => e)) as Error).name).toBe("AbortError");
    const already = nodeFetch(base, { ...manual, signal: AbortSignal.abort() });
    expect(((await already.catch((e: unknown) => e)) as Error).name).toBe("AbortError");
  });

  it("fails the body with TypeError('terminated') when the connection breaks, AbortError when aborted", async () => {
    const base = await serve((req, res) => {
      res.writeHead(200);
      res.write("part");
      if (req.url === "/cut") setImmediate(() => res.socket?.destroy());
    });
    const cut = (await nodeFetch(`${base}/cut`, manual)) as NodeResponse;
    const failure = await cut.text().catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(TypeError);
    expect((failure as Error).message).toBe("terminated");

    const controller = new AbortController();
    const open = (await nodeFetch(`${base}/open`, {
      ...manual,
      signal: controller.signal,
    })) as NodeResponse;
    const reader = (open.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    controller.abort();
    expect(((await reader.read().catch((e: unknown) => e)) as Error).name).toBe("AbortError");
  });

  it("is read as it arrives through its async iterator, and stopping closes the connection", async () => {
    let closed: () => void = () => undefined;
    const serverSawClose = new Promise<void>((resolve) => {
      closed = resolve;
    });
    const base = await serve((req, res) => {
      res.writeHead(200, req.url === "/gz" ? { "content-encoding": "gzip" } : {});
      if (req.url === "/gz") {
        // Half a gzip stream, then the connection breaks: the decoder must not wait.
        const packed = gzipSync("x".repeat(10_000));
        res.write(packed.subarray(0, 20));
        setImmediate(() => res.socket?.destroy());
        return;
      }
      res.write("one");
      res.on("close", closed);
    });
    const response = (await nodeFetch(`${base}/open`, manual)) as NodeResponse;
    const body = response.body as NodeBody;
    expect(body).toBeInstanceOf(NodeBody);
    expect(body.locked).toBe(false);
    const chunks: string[] = [];
    for await (const chunk of body) {
      chunks.push(Buffer.from(chunk).toString());
      break; // The server never ends this body.
    }
    expect(chunks).toEqual(["one"]);
    expect(body.locked).toBe(true);
    await serverSawClose;
    // As the SDKs cancel a body they will not read: an iterator's return before any read.
    const unread = (await nodeFetch(`${base}/open`, manual)) as NodeResponse;
    await unread.body?.[Symbol.asyncIterator]().return?.();
    expect((unread.body as NodeBody).locked).toBe(true);
    const gz = (await nodeFetch(`${base}/gz`, manual)) as NodeResponse;
    const failure = await gz.text().catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(TypeError);
    expect((failure as Error).message).toBe("terminated");
  });

  it("leaves what it does not handle (following redirects, other bodies) to Node's fetch", async () => {
    const base = await serve((req, res) => {
      if (req.url === "/r") res.writeHead(302, { location: "/end" }).end();
      else res.end(`at ${req.url}`);
    });
    const followed = (await nodeFetch(`${base}/r`, {})) as Response;
    expect(followed).not.toBeInstanceOf(NodeResponse);
    expect(await followed.text()).toBe("at /end");
  });
});

/** Both SDKs' first request in a fresh process: the events' types and what of undici loaded. */
async function firstRequests(transport: "node" | "fetch") {
  const script = `
      import { startFakeProvider, reply } from "@z-engine/testkit";
      import { AnthropicClient, OpenAiCompatibleClient } from "@z-engine/llm";
      const transport = ${JSON.stringify(transport)};
      const provider = await startFakeProvider({ script: [reply.text("hi"), reply.text("ho")] });
      const request = { model: "m", system: [], tools: [], cacheMarks: [], maxTokens: 10,
        messages: [{ role: "user", content: [{ type: "text", text: "hello" }] }] };
      const out = [];
      for (const client of [
        new AnthropicClient({ baseUrl: provider.anthropicBaseUrl, apiKey: "k", transport }),
        new OpenAiCompatibleClient({ baseUrl: provider.openaiBaseUrl, apiKey: "k", transport }),
      ]) for await (const e of client.stream(request)) out.push(e.type);
      await provider.close();
      const loaded = (part) => process.moduleLoadList.filter((m) => m.includes(part));
      console.log(JSON.stringify({ out, undici: loaded("undici"), webstreams: loaded("webstreams/readablestream") }));
    `;
  const cwd = fileURLToPath(new URL("..", import.meta.url));
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["--input-type=module", "-e", script],
    { cwd },
  );
  return JSON.parse(stdout) as { out: string[]; undici: string[]; webstreams: string[] };
}

describe("the SDKs' first request", () => {
  it("does not load Node's fetch (undici) or Node's web streams", async () => {
    const result = await firstRequests("node");
    expect(result.out.filter((t) => t === "stop")).toHaveLength(2);
    expect(result.undici).toEqual([]);
    // The SDKs read a body through its async iterator and their request-body test skips a
    // plain object: no web stream is made.
    expect(result.webstreams).toEqual([]);
  });

  it('goes through Node\'s fetch with transport "fetch"', async () => {
    const result = await firstRequests("fetch");
    expect(result.out.filter((t) => t === "stop")).toHaveLength(2);
    expect(result.undici).not.toEqual([]);
  });
});
