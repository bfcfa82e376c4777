import { readFile } from "node:fs/promises";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { guardStreamBodyCheck, maybeStream } from "../scripts/stream-body-check.mjs";

const test = new Function("body", `return ${maybeStream("body")};`) as (body: unknown) => boolean;

describe("the bundle's request-body stream test", () => {
  it("skips the ReadableStream test only for values that cannot be one", () => {
    for (const body of [undefined, null, "text", 3, true, {}, { model: "m" }, Object.create(null)])
      expect(test(body)).toBe(false);
    class Sub extends ReadableStream {}
    for (const body of [
      new ReadableStream(),
      new Sub(),
      Readable.from(["a"]),
      new Uint8Array(1),
      [1],
      new FormData(),
      (async function* () {})(),
    ])
      expect(test(body)).toBe(true);
  });

  it("guards each stream test of the vendored Anthropic SDK, and keeps what they answer", async () => {
    // llm's vendored SDK, built (the bundle reads the same file through the engine).
    const vendored = new URL("../../../packages/llm/dist/vendor/anthropic-sdk.js", import.meta.url);
    const source = await readFile(vendored, "utf8");
    const { code, rewritten } = guardStreamBodyCheck(source);
    // isStreamBody, buildBody, buildRequest and fetchWithTimeout.
    expect(rewritten).toBe(4);
    expect(code).not.toMatch(/[^&] globalThis\.ReadableStream && [\w$.]+ instanceof/);
    const [guarded] = guardStreamBodyCheck(
      "(options.body) => globalThis.ReadableStream && options.body instanceof globalThis.ReadableStream",
    ).code.split(" => ");
    expect(guarded).toBe("(options.body)");
    const check = new Function(
      "options",
      `return ${guardStreamBodyCheck("globalThis.ReadableStream && options.body instanceof globalThis.ReadableStream").code};`,
    ) as (options: { body: unknown }) => unknown;
    expect(Boolean(check({ body: new ReadableStream() }))).toBe(true);
    expect(Boolean(check({ body: { a: 1 } }))).toBe(false);
    expect(Boolean(check({ body: "text" }))).toBe(false);
    expect(guardStreamBodyCheck("const x = 1;")).toEqual({ code: "const x = 1;", rewritten: 0 });
  });
});
