import { execFileSync } from "node:child_process";
import { constants, PerformanceObserver } from "node:perf_hooks";
import { describe, expect, it } from "vitest";
import {
  BEFORE_FLAGS_BUILTINS,
  COLLECT_AT_ANSWER,
  beforeFirstWasmCompile,
  FLAG_DELAY_MS,
  favourMemory,
  MEMORY_FLAGS,
} from "./memory-tuning.js";

function recorder(cacheSettled?: boolean) {
  const log: string[] = [];
  let compiling: () => void = () => {
    throw new Error("not watched");
  };
  const step = favourMemory({
    ...(cacheSettled === undefined ? {} : { cacheSettled }),
    beforeFlags: () => log.push("save"),
    preload: () => log.push("preload"),
    setFlags: (flag) => log.push(flag),
    collect: () => log.push("collect"),
    watchWasm: (before) => {
      compiling = before;
      return () => log.push("unwatch");
    },
  });
  // A stand-in for the first WebAssembly compile.
  return { log, step, compile: () => compiling() };
}

const FLAGGED = ["unwatch", "save", "preload", ...MEMORY_FLAGS];
/** Longer than any timer a change of the flags waits for. */
const aWhile = () => new Promise((resolve) => setTimeout(resolve, FLAG_DELAY_MS * 3));

describe("favourMemory", () => {
  it("leaves the flags alone through a first request, its answer and its tool calls, when the run writes the code cache", async () => {
    for (const settled of [false, undefined]) {
      const { log, step } = recorder(settled);
      step("requestStarted");
      step("answerFinished");
      await aWhile();
      expect(log).toEqual([]);
    }
  });

  it("sets the flags a while after the first request starts, when the run writes no code cache", async () => {
    const { log, step } = recorder(true);
    step("requestStarted");
    step("answerFinished");
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(log).toEqual([]);
    await aWhile();
    expect(log).toEqual(FLAGGED);
    step("requestStarted");
    await aWhile();
    expect(log).toEqual(FLAGGED);
  });

  it("writes the code cache, then sets the flags, when the second request starts", async () => {
    for (const settled of [true, false]) {
      const { log, step } = recorder(settled);
      step("requestStarted");
      step("answerFinished");
      step("requestStarted");
      expect(log).toEqual(FLAGGED);
      step("answerFinished");
      step("requestStarted");
      await aWhile();
      expect(log).toEqual(FLAGGED);
    }
  });

  it("writes the code cache, then sets the flags, before the first WebAssembly compile", async () => {
    for (const settled of [true, false]) {
      for (const before of [
        [],
        ["requestStarted"],
        ["requestStarted", "answerFinished"],
      ] as const) {
        const { log, step, compile } = recorder(settled);
        for (const s of before) step(s);
        compile();
        expect(log, before.join()).toEqual(FLAGGED);
        step("requestStarted");
        step("answerFinished");
        step("requestStarted");
        await aWhile();
        expect(log, before.join()).toEqual(FLAGGED);
      }
    }
  });

  it("loads Node's modules the first tool calls need before the flags change", () => {
    // In a fresh Node (this one loaded them long ago), from the compiled module in dist/.
    // process.moduleLoadList names each module Node loaded: `NativeModule <id>`.
    const compiled = new URL("../dist/memory-tuning.js", import.meta.url);
    const script = `
      import { BEFORE_FLAGS_BUILTINS, favourMemory } from ${JSON.stringify(compiled.href)};
      const loaded = () => BEFORE_FLAGS_BUILTINS.filter((id) =>
        process.moduleLoadList.includes("NativeModule " + id.replace(/^node:/, "")));
      const atStart = loaded();
      const atFlags = [];
      const step = favourMemory({ setFlags: () => atFlags.push(loaded()), collect: () => {} });
      step("requestStarted");
      step("requestStarted");
      process.stdout.write(JSON.stringify({ atStart, atFlags }));`;
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
      encoding: "utf8",
    });
    expect(JSON.parse(out)).toEqual({
      atStart: [],
      atFlags: MEMORY_FLAGS.map(() => [...BEFORE_FLAGS_BUILTINS]),
    });
  });

  it("collects garbage once, at the answer it names", () => {
    const { log, step } = recorder();
    for (let i = 1; i < COLLECT_AT_ANSWER; i++) {
      step("requestStarted");
      step("answerFinished");
    }
    expect(log.filter((l) => l === "collect")).toEqual([]);
    step("answerFinished");
    expect(log.filter((l) => l === "collect")).toEqual(["collect"]);
    for (let i = 0; i < COLLECT_AT_ANSWER * 2; i++) step("answerFinished");
    expect(log.filter((l) => l === "collect")).toEqual(["collect"]);
  });

  it("runs a real, forced, full garbage collection by default", async () => {
    const forced = new Promise<void>((resolve) => {
      const observer = new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) {
          const detail = (entry as { detail?: { kind?: number; flags?: number } }).detail;
          const full = detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR;
          if (full && ((detail?.flags ?? 0) & constants.NODE_PERFORMANCE_GC_FLAGS_FORCED) !== 0) {
            observer.disconnect();
            resolve();
          }
        }
      });
      observer.observe({ entryTypes: ["gc"] });
    });
    // The flags are left alone here (setFlags is a no-op); the collection is the real one.
    const step = favourMemory({
      cacheSettled: true,
      setFlags: () => undefined,
      watchWasm: () => () => undefined,
    });
    for (let i = 0; i < COLLECT_AT_ANSWER; i++) step("answerFinished");
    await forced;
  });
});

/** The smallest WebAssembly module: the magic number and version 1. */
const EMPTY_MODULE = new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);

/** The part of the WebAssembly API used here (the project's TypeScript libs leave it out). */
interface WasmApi {
  Module: { new (bytes: Uint8Array): object; exports(module: object): unknown[] };
  compile(bytes: Uint8Array): Promise<object>;
  instantiate(bytes: Uint8Array): Promise<unknown>;
}
declare const WebAssembly: WasmApi;

/** A copy of this thread's `WebAssembly` functions, for the watch to replace. */
function wasmApi(): WasmApi {
  const { Module, compile, instantiate } = WebAssembly;
  return { Module, compile, instantiate };
}

describe("beforeFirstWasmCompile", () => {
  it("runs its callback once, before the first compile, which still compiles; then puts the originals back", async () => {
    const api = wasmApi();
    const log: string[] = [];
    beforeFirstWasmCompile(() => log.push("before"), api);
    expect(api.Module).not.toBe(WebAssembly.Module);
    const held = api.compile;
    const module = new api.Module(EMPTY_MODULE);
    expect(log).toEqual(["before"]);
    expect(module).toBeInstanceOf(WebAssembly.Module);
    expect(WebAssembly.Module.exports(module)).toEqual([]);
    expect(api).toEqual(wasmApi());
    // A stand-in someone kept still compiles, and calls nothing more.
    expect(await held(EMPTY_MODULE)).toBeInstanceOf(WebAssembly.Module);
    expect(log).toEqual(["before"]);
  });

  it("watches compile and instantiate too", async () => {
    for (const use of [
      (api: WasmApi) => api.compile(EMPTY_MODULE),
      (api: WasmApi) => api.instantiate(EMPTY_MODULE),
    ]) {
      const api = wasmApi();
      const log: string[] = [];
      beforeFirstWasmCompile(() => log.push("before"), api);
      const compiled = use(api);
      expect(log).toEqual(["before"]);
      await compiled;
    }
  });

  it("stops watching without calling back, when told to", () => {
    const api = wasmApi();
    const log: string[] = [];
    const stop = beforeFirstWasmCompile(() => log.push("before"), api);
    stop();
    stop();
    expect(api).toEqual(wasmApi());
    expect(new api.Module(EMPTY_MODULE)).toBeInstanceOf(WebAssembly.Module);
    expect(log).toEqual([]);
  });
});
