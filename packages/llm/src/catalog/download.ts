import { get as httpGet } from "node:http";
import { get as httpsGet } from "node:https";
import { LlmError } from "../errors.js";

/** Largest catalog accepted (models.dev is about 1-2 MB). */
export const MAX_CATALOG_BYTES = 32 * 1024 * 1024;

/**
 * GETs `url` as text on a socket that never keeps the process alive (unref'd). Rejects with
 * an `LlmError` (code `catalogFetch`) on a non-200 status, a body over `maxBytes`, a network
 * failure, `timeoutMs` without data, or when `signal` aborts.
 */
export function download(
  url: string,
  signal: AbortSignal,
  timeoutMs = 30_000,
  maxBytes = MAX_CATALOG_BYTES,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const fail = (message: string, cause?: unknown) =>
      reject(new LlmError("catalogFetch", `catalog ${url}: ${message}`, { cause }));
    const get = url.startsWith("https:") ? httpsGet : httpGet;
    let req: ReturnType<typeof httpGet>;
    try {
      req = get(
        url,
        { signal, timeout: timeoutMs, headers: { accept: "application/json" } },
        (res) => {
          if (res.statusCode !== 200) {
            res.resume();
            return fail(`HTTP ${res.statusCode}`);
          }
          const chunks: Buffer[] = [];
          let size = 0;
          res.on("data", (chunk: Buffer) => {
            size += chunk.length;
            if (size > maxBytes) {
              req.destroy();
              fail(`larger than ${maxBytes} bytes`);
            } else chunks.push(chunk);
          });
          res.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
          res.on("error", (error) => fail(error.message, error));
        },
      );
    } catch (error) {
      return fail("bad URL", error);
    }
    req.on("socket", (socket) => socket.unref());
    req.on("timeout", () => req.destroy(new Error(`no data for ${timeoutMs} ms`)));
    req.on("error", (error) => fail(error.message, error));
  });
}
