import { execFile } from "node:child_process";
import { closeSync, constants, openSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { promisify } from "node:util";
import { reply } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { type Harness, harness } from "../harness.js";

// A project can hold a FIFO where git reads an ignore file (a test suite's, or one a command
// made after the git door looked): the turn's snapshot then waits on git for its time limit
// (two minutes). Closing the session does not wait that out: past a short grace, the
// session's lifetime kills its git calls.
const exec = promisify(execFile);

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

/** True while some process has the FIFO open for reading. */
function hasReader(fifo: string): boolean {
  try {
    closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
    return true;
  } catch {
    return false;
  }
}

async function until(check: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

describe("closing a session whose turn waits on git", { timeout: 60_000 }, () => {
  it("kills the blocked snapshot's git and closes within seconds", async () => {
    h = await harness({
      files: { "a.txt": "a\n" },
      script: [],
      overrides: { mode: "acceptEdits" },
      prepare: async (repo) => {
        // More files than a listing in process takes: git lists them, and blocks on the FIFO.
        await mkdir(repo.path("many"));
        for (let i = 0; i < 1_100; i++) await writeFile(repo.path(`many/f${i}`), "");
        await exec("mkfifo", [repo.path(".gitignore")]);
      },
    });
    const fifo = h.repo.path(".gitignore");
    h.model.push(
      reply.toolCall("Write", { file_path: h.repo.path("b.txt"), content: "b\n" }),
      reply.text("done"),
    );
    void h.session.run("write b.txt").catch(() => {});
    expect(await until(() => hasReader(fifo), 20_000)).toBe(true);
    const started = Date.now();
    await h.session.close();
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(hasReader(fifo)).toBe(false);
  });
});
