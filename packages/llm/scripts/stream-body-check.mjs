// An esbuild plugin for the first request (issue 18), used where the SDKs are bundled
// (scripts/bundle-sdk.mjs). The Anthropic SDK asks `x instanceof globalThis.ReadableStream`
// of every request body in four places (`isStreamBody`, `buildBody`, `buildRequest`,
// `fetchWithTimeout`), the OpenAI SDK in three, and reading that global makes Node load its
// web streams (about 2 ms of CPU before the first request) although the body is a plain
// object or a string. Neither a primitive nor an object whose prototype is Object.prototype
// or null can be a ReadableStream, so those skip the test and every answer stays the same
// (test/stream-body-check.test.ts). SDK files without such a test are bundled unchanged.
import { readFile } from "node:fs/promises";

const STREAM_TEST =
  /globalThis\.ReadableStream\s*&&\s*([\w$.]+)\s+instanceof\s+globalThis\.ReadableStream/g;

/** The test put first for the value `x` (an identifier or a property path): false only when `x` cannot be a ReadableStream. */
export function maybeStream(x) {
  return `(typeof ${x} === "object" && ${x} !== null && Object.getPrototypeOf(${x}) !== Object.prototype && Object.getPrototypeOf(${x}) !== null)`;
}

/** Guards each of `source`'s stream tests; returns the code and how many it rewrote. */
export function guardStreamBodyCheck(source) {
  let rewritten = 0;
  const code = source.replace(STREAM_TEST, (test, x) => {
    rewritten++;
    return `${maybeStream(x)} && ${test}`;
  });
  return { code, rewritten };
}

/** @type {import("esbuild").Plugin} */
export const streamBodyCheck = {
  name: "stream-body-check",
  setup(build) {
    build.onLoad({ filter: /[\\/](@anthropic-ai[\\/]sdk|openai)[\\/].*\.m?js$/ }, async (args) => {
      const { code, rewritten } = guardStreamBodyCheck(await readFile(args.path, "utf8"));
      return rewritten > 0 ? { contents: code, loader: "js" } : undefined;
    });
  },
};
