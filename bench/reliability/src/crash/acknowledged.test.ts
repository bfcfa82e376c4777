import type { EventEnvelope } from "@z-engine/protocol";
import { describe, expect, it } from "vitest";
import { envelopesOf, lostRecords } from "./acknowledged.js";

const envelope = (event: Record<string, unknown>) =>
  JSON.stringify({ sessionId: "s1", seq: 1, ts: 0, event } as unknown as EventEnvelope);

describe("lostRecords", () => {
  const started = { type: "turnStarted", turnId: "t1", prompt: "step 1" };
  const finished = { type: "toolFinished", toolCallId: "c1", status: "ok", name: "Bash" };
  const lines = [
    envelope(started),
    envelope(finished),
    envelope({ type: "textDelta", text: "x" }),
    "{torn",
  ];

  it("finds an acknowledged record the log does not hold, and ignores live-only events", () => {
    const records = [{ kind: "turnStarted", v: 1, ts: 0, turnId: "t1", prompt: "step 1" }];
    expect(lostRecords(envelopesOf(lines), records).map((e) => e.type)).toEqual(["toolFinished"]);
  });

  it("finds nothing lost when every record is there", () => {
    const records = [
      { kind: "turnStarted", v: 1, ts: 0, turnId: "t1" },
      { kind: "toolFinished", v: 1, ts: 0, toolCallId: "c1", status: "ok" },
    ];
    expect(lostRecords(envelopesOf(lines), records)).toEqual([]);
  });
});
