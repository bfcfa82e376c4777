import { readFile } from "node:fs/promises";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { guardStreamBodyCheck, maybeStream } from "../scripts/stream-body-check.mjs";

const test = new Function("body", `return ${maybeStream("body")};`) as (body: unknown) => boolean;

describe("the vendored SDKs' request-body stream test", () => {
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
    // The SDK as llm bundles it (scripts/bundle-sdk.mjs runs the guard on its files).
    const vendored = new URL("../dist/vendor/anthropic-sdk.js", import.meta.url);
    const source = await readFile(vendored, "utf8");
    // isStreamBody, buildBody, buildRequest and fetchWithTimeout: each guarded, none left.
    expect(source.match(/globalThis\.ReadableStream && [\w$.]+ instanceof/g)).toHaveLength(4);
    expect(source).not.toMatch(/[^&] globalThis\.ReadableStream && [\w$.]+ instanceof/);
    // The OpenAI SDK's three (buildBody, buildRequest, fetchWithTimeout) too.
    const openai = await readFile(new URL("../dist/vendor/openai.js", import.meta.url), "utf8");
    expect(openai.match(/globalThis\.ReadableStream && [\w$.]+ instanceof/g)).toHaveLength(3);
    expect(openai).not.toMatch(/[^&] globalThis\.ReadableStream && [\w$.]+ instanceof/);
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
