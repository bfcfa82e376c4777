import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readLog } from "./log-reader.js";
import { openLogForAppend } from "./log-writer.js";
import { tempDir } from "./test-helpers.js";

const CHILD = fileURLToPath(new URL("../test/crash-child.mjs", import.meta.url));
const DIST = fileURLToPath(new URL("../dist/index.js", import.meta.url));

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ dir, cleanup } = await tempDir()));
afterAll(() => cleanup());

/** Runs the child until it has reported `acks` appends, kills it, and returns every ack it sent. */
async function runAndKill(path: string, acks: number): Promise<{ acked: number[]; ready: string }> {
  const child = spawn(process.execPath, [CHILD, path], { stdio: ["ignore", "pipe", "inherit"] });
  const acked: number[] = [];
  let ready = "";
  let buffer = "";
  let killed = false;
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk: string) => {
    buffer += chunk;
    const lines = buffer.split("\n");
    buffer = lines.pop() ?? "";
    for (const line of lines) {
      if (line.startsWith("ready")) ready = line;
      else acked.push(Number(line));
    }
    if (!killed && acked.length >= acks) {
      killed = true;
      child.kill("SIGKILL");
    }
  });
  const [, signal] = await once(child, "exit");
  if (!child.stdout.closed) await once(child.stdout, "close");
  expect(signal).toBe("SIGKILL");
  return { acked, ready };
}

describe("crash safety", () => {
  it("keeps every acknowledged append through 50 SIGKILLs, and every reopen repairs the log", async () => {
    expect(existsSync(DIST), "build the package first (tsc -b): the child imports dist/").toBe(
      true,
    );
    const path = join(dir, "log.jsonl");
    const allAcked: number[] = [];
    for (let round = 0; round < 50; round++) {
      const { acked, ready } = await runAndKill(path, 1 + Math.floor(Math.random() * 120));
      // The child's own open repaired the log it found: no damage, ever.
      expect(ready.split(" ")[2]).toBe("0");
      allAcked.push(...acked);
      const read = await readLog(path);
      expect(read.damage).toEqual([]);
      const seqs = read.records.map((r) => (r.kind === "notice" ? Number(r.message) : -1));
      // In order, without gaps, and every acknowledged append is there.
      expect(seqs).toEqual(seqs.map((_, i) => i));
      expect(seqs.length).toBeGreaterThan(Math.max(...acked));
    }
    const { log, read } = await openLogForAppend(path);
    await log.close();
    expect((await readLog(path)).tornTail).toBeNull();
    expect(read.records.length).toBeGreaterThanOrEqual(allAcked.length);
  }, 60_000);
});
