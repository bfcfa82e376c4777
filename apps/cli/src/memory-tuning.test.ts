import { execFileSync } from "node:child_process";
import { constants, PerformanceObserver } from "node:perf_hooks";
import { describe, expect, it } from "vitest";
import {
  BEFORE_FLAGS_BUILTINS,
  COLLECT_AT_ANSWER,
  FIRST_ANSWER_FLAGS,
  FLAG_DELAY_MS,
  favourMemory,
} from "./memory-tuning.js";

function recorder(cacheSettled?: boolean) {
  const log: string[] = [];
  const step = favourMemory({
    ...(cacheSettled === undefined ? {} : { cacheSettled }),
    beforeFlags: () => log.push("save"),
    preload: () => log.push("preload"),
    setFlags: (flag) => log.push(flag),
    collect: () => log.push("collect"),
  });
  return { log, step };
}

const FLAGGED = ["preload", ...FIRST_ANSWER_FLAGS];
const afterDelay = () => new Promise((resolve) => setTimeout(resolve, FLAG_DELAY_MS + 5));

describe("favourMemory", () => {
  it("sets the flags a while after the first request starts when this run writes no code cache", async () => {
    const { log, step } = recorder(true);
    step("requestStarted");
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(log).toEqual([]);
    await afterDelay();
    expect(log).toEqual(FLAGGED);
    step("answerFinished");
    step("requestStarted");
    await afterDelay();
    expect(log).toEqual(FLAGGED);
  });

  it("sets the flags once, at the first answer, when it comes before the timer", async () => {
    const { log, step } = recorder(true);
    step("requestStarted");
    step("answerFinished");
    expect(log).toEqual(["save", ...FLAGGED]);
    await afterDelay();
    expect(log).toEqual(["save", ...FLAGGED]);
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
      favourMemory({ setFlags: () => atFlags.push(loaded()), collect: () => {} })("answerFinished");
      process.stdout.write(JSON.stringify({ atStart, atFlags }));`;
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
      encoding: "utf8",
    });
    expect(JSON.parse(out)).toEqual({
      atStart: [],
      atFlags: FIRST_ANSWER_FLAGS.map(() => [...BEFORE_FLAGS_BUILTINS]),
    });
  });

  it("writes the code cache before the flags change, at the first answer, when it must write one", () => {
    for (const settled of [false, undefined]) {
      const { log, step } = recorder(settled);
      step("requestStarted");
      expect(log).toEqual([]);
      step("answerFinished");
      expect(log).toEqual(["save", ...FLAGGED]);
      step("requestStarted");
      step("answerFinished");
      expect(log).toEqual(["save", ...FLAGGED]);
    }
  });

  it("collects garbage once, at the answer it names", () => {
    const { log, step } = recorder(true);
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
    const step = favourMemory({ cacheSettled: true, setFlags: () => undefined });
    for (let i = 0; i < COLLECT_AT_ANSWER; i++) step("answerFinished");
    await forced;
  });
});
