import { readFile, truncate, writeFile } from "node:fs/promises";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FileSessionStore } from "./file-session-store.js";
import { readLog } from "./log-reader.js";
import { AppendLog, openLogForAppend } from "./log-writer.js";
import { type LogRecord, logRecord } from "./records.js";
import { assistantCall, msg, tempDir, usage, userText } from "./test-helpers.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ dir, cleanup } = await tempDir()));
afterAll(() => cleanup());

const text = fc.string({ unit: "binary", maxLength: 200 });
const record: fc.Arbitrary<LogRecord> = fc.oneof(
  text.map((t) => logRecord("title", { title: t }, 1)),
  fc.tuple(fc.uuid(), text).map(([id, t]) => msg(userText(id, t))),
  fc.tuple(fc.uuid(), fc.uuid()).map(([id, call]) => msg(assistantCall(id, call))),
  fc
    .double({ min: 0, max: 10, noNaN: true })
    .map((c) => logRecord("usage", { usage: usage(c) }, 2)),
  text.map((t) => logRecord("notice", { level: "info", code: "x", message: t }, 3)),
);

type Fault =
  | { kind: "truncate"; at: number }
  | { kind: "overwrite"; at: number; bytes: number[] }
  | { kind: "deleteByte"; at: number }
  | { kind: "garbageLine"; line: number; garbage: string };

const fault: fc.Arbitrary<Fault> = fc.oneof(
  fc.record({ kind: fc.constant("truncate" as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant("overwrite" as const),
    at: fc.nat(),
    bytes: fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 1, maxLength: 8 }),
  }),
  fc.record({ kind: fc.constant("deleteByte" as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant("garbageLine" as const),
    line: fc.nat(),
    garbage: fc.string({ maxLength: 40 }),
  }),
);

function corrupt(bytes: Buffer, f: Fault): Buffer {
  if (bytes.length === 0) return bytes;
  const at = f.kind === "garbageLine" ? 0 : f.at % bytes.length;
  switch (f.kind) {
    case "truncate":
      return bytes.subarray(0, at);
    case "overwrite": {
      const out = Buffer.from(bytes);
      f.bytes.forEach((b, i) => {
        if (at + i < out.length) out[at + i] = b;
      });
      return out;
    }
    case "deleteByte":
      return Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + 1)]);
    case "garbageLine": {
      const lines = bytes.toString("utf8").split("\n");
      lines[f.line % Math.max(1, lines.length - 1)] = f.garbage.replaceAll("\n", " ");
      return Buffer.from(lines.join("\n"), "utf8");
    }
  }
}

/** The complete lines of a file (its last segment, unterminated, is the torn tail). */
function completeLines(bytes: Buffer): { lines: string[]; torn: number } {
  const end = bytes.lastIndexOf(10) + 1;
  const parts = bytes.subarray(0, end).toString("utf8").split("\n");
  parts.pop();
  return { lines: parts, torn: bytes.length - end };
}

let run = 0;

describe("corrupted logs (property)", () => {
  it("open never throws, loses only the torn or damaged lines, and reports each loss", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(record, { minLength: 1, maxLength: 30 }),
        fault,
        async (records, f) => {
          const path = join(dir, `log-${run++}.jsonl`);
          const log = AppendLog.openRepaired(path);
          await log.appendAll(records);
          await log.close();
          const original = await readFile(path);
          const corrupted = corrupt(original, f);
          await writeFile(path, corrupted);

          const read = await readLog(path);
          const { lines, torn } = completeLines(corrupted);
          const counted = lines.filter((l) => l.trim() !== "").length;
          // Every complete line is a record, a reported damage, or a kept unknown kind.
          expect(read.records.length + read.damage.length + read.unknown.length).toBe(counted);
          expect(read.tornTail?.bytes ?? 0).toBe(torn);
          // Every original line that is still intact comes back as its record.
          const intact = new Set(
            original
              .toString("utf8")
              .split("\n")
              .filter((l) => l !== ""),
          );
          const back = new Set(read.records.map((r) => JSON.stringify(r)));
          for (const line of lines) if (intact.has(line)) expect(back.has(line)).toBe(true);

          // Repair, then append: the log continues cleanly after the intact records.
          const opened = await openLogForAppend(path);
          await opened.log.append(logRecord("title", { title: "after repair" }, 9));
          await opened.log.close();
          const again = await readLog(path);
          expect(again.tornTail).toBeNull();
          expect(again.records.slice(0, -1)).toEqual(read.records);
          expect(again.records.at(-1)).toMatchObject({ kind: "title", title: "after repair" });
        },
      ),
      { numRuns: 200 },
    );
  }, 60_000);

  it("a session folder with a corrupted log always opens, and reports its losses", async () => {
    const store = new FileSessionStore({ dataDir: join(dir, "data") });
    await fc.assert(
      fc.asyncProperty(
        fc.array(record, { minLength: 1, maxLength: 20 }),
        fault,
        async (records, f) => {
          const session = await store.create({ projectRoot: "/p" });
          for (const r of records) await session.append(r);
          await session.close();
          const bytes = await readFile(session.logPath);
          const corrupted = corrupt(bytes, f);
          if (f.kind === "truncate") await truncate(session.logPath, corrupted.length);
          else await writeFile(session.logPath, corrupted);
          const { session: again, report, replay } = await store.open(session.id);
          const losses = report.damage.length + (report.tornTail ? 1 : 0);
          const { lines } = completeLines(corrupted);
          expect(replay.transcript.length).toBeLessThanOrEqual(lines.length);
          if (corrupted.equals(bytes)) expect(losses).toBe(0);
          expect(report.metaRebuilt === null || report.metaRebuilt === "stale").toBe(true);
          await again.close();
        },
      ),
      { numRuns: 60 },
    );
  }, 60_000);
});
