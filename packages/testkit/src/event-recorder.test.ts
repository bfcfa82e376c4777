import {
  EVENT_EXAMPLES,
  type EngineEvent,
  type EventEnvelope,
  type SessionId,
} from "@z-engine/protocol";
import { describe, expect, it } from "vitest";
import { EventRecorder, matchesShape } from "./event-recorder.js";

const session = "ses_1" as SessionId;
const feed = (recorder: EventRecorder, events: EngineEvent[], start = 0) => {
  for (const [i, event] of events.entries()) {
    recorder.sink({ v: 2, sessionId: session, seq: start + i, ts: 1, event });
  }
};

const walkthrough: EngineEvent[] = [
  EVENT_EXAMPLES.turnStarted,
  EVENT_EXAMPLES.assistantStarted,
  EVENT_EXAMPLES.textDelta,
  EVENT_EXAMPLES.checkpointCreated,
  EVENT_EXAMPLES.toolStarted,
  EVENT_EXAMPLES.toolFinished,
  EVENT_EXAMPLES.verificationChanged,
  EVENT_EXAMPLES.turnFinished,
];

describe("matchesShape", () => {
  it("matches listed keys, arrays element by element, and predicates", () => {
    expect(matchesShape({ a: 1, b: { c: 2, d: 3 } }, { b: { c: 2 } })).toBe(true);
    expect(matchesShape({ a: 1 }, { a: 2 })).toBe(false);
    expect(matchesShape([1, 2], [1, 2])).toBe(true);
    expect(matchesShape([1, 2], [1])).toBe(false);
    expect(matchesShape("x", (v: unknown) => v === "x")).toBe(true);
    expect(matchesShape(null, { a: 1 })).toBe(false);
  });
});

describe("EventRecorder", () => {
  it("finds named events as an ordered subsequence with shapes", () => {
    const recorder = new EventRecorder();
    feed(recorder, walkthrough);
    expect(() =>
      recorder.expectSubsequence([
        "turnStarted",
        { type: "toolFinished", status: "ok", writtenPaths: ["src/a.ts"] },
        { type: "turnFinished", badge: { status: "verified" } },
      ]),
    ).not.toThrow();
    expect(recorder.ofType("toolFinished")).toHaveLength(1);
    expect(recorder.types()[0]).toBe("turnStarted");
  });

  it("fails naming the first missing event, for a wrong order and a wrong shape", () => {
    const recorder = new EventRecorder();
    feed(recorder, walkthrough);
    expect(() => recorder.expectSubsequence(["turnFinished", "turnStarted"])).toThrow(
      /expected event #1 turnStarted in order, not found/,
    );
    expect(() =>
      recorder.expectSubsequence([{ type: "turnFinished", badge: { status: "failed" } }]),
    ).toThrow(/expected event #0/);
  });

  it("reports envelopes that break the schema or the seq order", () => {
    const recorder = new EventRecorder();
    feed(recorder, [EVENT_EXAMPLES.modeChanged], 5);
    feed(recorder, [EVENT_EXAMPLES.modeChanged], 5);
    recorder.sink({
      v: 2,
      sessionId: session,
      seq: 9,
      ts: 1,
      event: { type: "modeChanged" },
    } as unknown as EventEnvelope);
    expect(recorder.problems).toHaveLength(2);
    expect(recorder.problems[0]).toMatch(/seq 5 after 5/);
    expect(recorder.problems[1]).toMatch(/event\.mode/);
    expect(() => recorder.expectSubsequence(["modeChanged"])).toThrow(/invalid envelopes/);
  });

  it("waits for an event that arrives later, and times out naming what came", async () => {
    const recorder = new EventRecorder();
    const waiting = recorder.waitFor("turnFinished", { outcome: "completed" });
    feed(recorder, walkthrough);
    await expect(waiting).resolves.toMatchObject({ type: "turnFinished" });
    await expect(recorder.waitFor("rewound", {}, { timeoutMs: 20 })).rejects.toThrow(
      /timed out waiting for rewound; events: turnStarted/,
    );
  });
});
