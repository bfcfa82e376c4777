import { constants, PerformanceObserver } from "node:perf_hooks";
import { describe, expect, it } from "vitest";
import { COLLECT_AT_ANSWER, FIRST_ANSWER_FLAGS, favourMemory } from "./memory-tuning.js";

function recorder(cacheSettled?: boolean) {
  const log: string[] = [];
  const step = favourMemory({
    ...(cacheSettled === undefined ? {} : { cacheSettled }),
    beforeFlags: () => log.push("save"),
    setFlags: (flag) => log.push(flag),
    collect: () => log.push("collect"),
  });
  return { log, step };
}

describe("favourMemory", () => {
  it("sets the flags just after the first request starts when this run writes no code cache", async () => {
    const { log, step } = recorder(true);
    step("requestStarted");
    expect(log).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(log).toEqual([...FIRST_ANSWER_FLAGS]);
    step("answerFinished");
    step("requestStarted");
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(log).toEqual([...FIRST_ANSWER_FLAGS]);
  });

  it("sets the flags once when the first answer comes before the timer", async () => {
    const { log, step } = recorder(true);
    step("requestStarted");
    step("answerFinished");
    expect(log).toEqual(["save", ...FIRST_ANSWER_FLAGS]);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(log).toEqual(["save", ...FIRST_ANSWER_FLAGS]);
  });

  it("writes the code cache before the flags change, at the first answer, when it must write one", () => {
    for (const settled of [false, undefined]) {
      const { log, step } = recorder(settled);
      step("requestStarted");
      expect(log).toEqual([]);
      step("answerFinished");
      expect(log).toEqual(["save", ...FIRST_ANSWER_FLAGS]);
      step("requestStarted");
      step("answerFinished");
      expect(log).toEqual(["save", ...FIRST_ANSWER_FLAGS]);
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
