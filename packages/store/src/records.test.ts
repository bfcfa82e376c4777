import { lastingEvents } from "@z-engine/protocol";
import { describe, expect, it } from "vitest";
import { checkRecord } from "./record-check.js";
import { LogRecord, logRecord } from "./records.js";
import { sampleRecords } from "./test-helpers.js";

/** Each record of a lasting fact, the event its fields come from, and what the record leaves out or adds. */
const DERIVED: readonly (readonly [string, keyof typeof lastingEvents, string[], string[]])[] = [
  ["turnStarted", "turnStarted", [], []],
  ["turnEnded", "turnFinished", [], []],
  ["toolFinished", "toolFinished", [], []],
  ["todos", "todosUpdated", [], []],
  ["planProposed", "planProposed", [], []],
  ["planResolved", "planResolved", [], []],
  ["questionAsked", "questionAsked", [], []],
  ["questionAnswered", "questionAnswered", [], []],
  ["approvalRequested", "approvalRequested", ["preview", "suggestedRules"], []],
  ["approvalResolved", "approvalResolved", [], []],
  ["check", "checkRecorded", [], []],
  ["checkpoint", "checkpointCreated", [], []],
  ["rewind", "rewound", [], []],
  ["mode", "modeChanged", [], []],
  ["model", "modelChanged", [], []],
  ["effort", "effortChanged", [], []],
  ["title", "titleChanged", [], []],
  ["trust", "trustRequired", [], ["decision"]],
  ["notice", "notice", [], []],
];

describe("records of lasting facts", () => {
  const options = LogRecord.options[0].options;
  it("take their fields from the event of the same fact, in the event's order", () => {
    for (const [kind, type, left, added] of DERIVED) {
      const record = options.find((o) => o.shape.kind.value === kind);
      const fields = Object.keys(record?.shape ?? {}).filter(
        (k) => !["kind", "v", "ts"].includes(k),
      );
      const eventFields = Object.keys(lastingEvents[type].shape).filter(
        (k) => k !== "type" && !left.includes(k),
      );
      expect(fields, kind).toEqual([...eventFields, ...added]);
    }
  });

  it("read and write the lines of earlier logs byte for byte", () => {
    const samples = sampleRecords();
    for (const [kind] of DERIVED) {
      const line = JSON.stringify(samples[kind as keyof typeof samples]);
      expect(JSON.stringify(LogRecord.parse(JSON.parse(line))), kind).toBe(line);
    }
  });
});

describe("LogRecord", () => {
  it("builds records with v: 2 and the given ts", () => {
    expect(logRecord("title", { title: "x" }, 42)).toEqual({
      kind: "title",
      v: 2,
      ts: 42,
      title: "x",
    });
  });

  it("accepts a sample of every kind with the zod schema and the structural check alike", () => {
    for (const [kind, record] of Object.entries(sampleRecords())) {
      expect(LogRecord.safeParse(record).success, kind).toBe(true);
      expect(checkRecord(record).status, kind).toBe("ok");
    }
  });

  it("reports a known kind that lacks any of its required top-level fields", () => {
    for (const [kind, record] of Object.entries(sampleRecords())) {
      for (const field of Object.keys(record)) {
        if (field === "kind") continue;
        const broken: Record<string, unknown> = { ...record };
        delete broken[field];
        const zodOk = LogRecord.safeParse(broken).success;
        // Every field zod requires, the structural check requires too.
        if (!zodOk) expect(checkRecord(broken).status, `${kind}.${field}`).toBe("damaged");
      }
    }
  });

  it("reports nested damage replay relies on: a message without content, a block without its id", () => {
    const sample = sampleRecords().message as Record<string, unknown>;
    const noContent = { ...sample, message: { id: "m", role: "user" } };
    expect(checkRecord(noContent)).toMatchObject({
      status: "damaged",
      reason: expect.stringContaining("content"),
    });
    const badBlock = {
      ...sample,
      message: { id: "m", role: "user", content: [{ type: "toolResult", content: [] }] },
    };
    expect(checkRecord(badBlock)).toMatchObject({
      status: "damaged",
      reason: expect.stringContaining("toolUseId"),
    });
    const badRole = { ...sample, message: { id: "m", role: "system", content: [] } };
    expect(checkRecord(badRole).status).toBe("damaged");
  });

  it("treats unknown kinds and newer versions as unknown, not damaged", () => {
    expect(checkRecord({ kind: "futureThing", v: 2, ts: 1 })).toEqual({
      status: "unknown",
      kind: "futureThing",
    });
    expect(checkRecord({ kind: "message", v: 3, ts: 1 })).toEqual({
      status: "unknown",
      kind: "message",
    });
  });

  it("reports values that are not records at all", () => {
    for (const value of [
      null,
      3,
      "x",
      [],
      { v: 2, ts: 1 },
      { kind: "title", ts: 1, title: "t" },
      { kind: "title", v: 1, ts: 1, title: "t" },
      { kind: "title", v: 2, title: "t" },
    ]) {
      expect(checkRecord(value).status).toBe("damaged");
    }
  });

  it("does not take a key of Object.prototype for a known kind", () => {
    expect(checkRecord({ kind: "toString", v: 2, ts: 1 }).status).toBe("unknown");
    expect(checkRecord({ kind: "__proto__", v: 2, ts: 1 }).status).toBe("unknown");
  });
});
