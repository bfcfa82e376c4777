import { openSync, rmSync, writeSync, closeSync } from "node:fs";
import { join } from "node:path";
import { type FakeProviderRequest, reply, type ScriptReply } from "@z-engine/testkit";
import { offersTools } from "../wire/shape.js";
import { wireMessages } from "../wire/read.js";

/** One way the disk fills: when, and what the model does. */
export interface DiskRow {
  readonly name: string;
  /** Fill the disk before the turn starts (its first record, the long prompt, cannot fit). */
  readonly fillFirst?: boolean;
  /** The scripted model: `fill` fills the disk now; `filler` is the filler file's path. */
  respond(request: FakeProviderRequest, fill: () => void, filler: string): ScriptReply;
}

/** The filler file on the data disk: the rows fill the disk with it and remove it after. */
export const fillerOf = (dataDir: string) => join(dataDir, "filler.bin");

/** Writes zeros to `path` until the disk refuses (ENOSPC); the file is left in place. */
export function fillDisk(path: string): void {
  const fd = openSync(path, "a");
  try {
    for (const size of [1 << 20, 1 << 16, 4096, 1]) {
      const chunk = Buffer.alloc(size);
      for (;;) {
        try {
          writeSync(fd, chunk);
        } catch {
          break;
        }
      }
    }
  } finally {
    closeSync(fd);
  }
}

/** Frees the space the filler took. */
export const freeDisk = (path: string) => rmSync(path, { force: true });

const LONG = `A long answer. ${"Every line of it must reach the log. ".repeat(300)}`;
const isStep2 = (request: FakeProviderRequest) =>
  wireMessages(request).some((m) => m.role === "user" && m.texts.some((t) => t.includes("step 2")));
const done = (request: FakeProviderRequest) =>
  reply.text(isStep2(request) ? "step 2 done" : "step 1 done");
const lastIsToolResult = (request: FakeProviderRequest) =>
  (wireMessages(request).at(-1)?.results.length ?? 0) > 0;

/**
 * The rows of the full-disk suite: the disk fills before the turn's first record, before
 * the model's answer is recorded, and by a tool's own writes (its result cannot be recorded).
 * Each model answers step 2 (after space is back) with a plain text.
 */
export const DISK_ROWS: readonly DiskRow[] = [
  {
    name: "full before the turn starts",
    fillFirst: true,
    respond: (request) => done(request),
  },
  {
    name: "full before the model's answer is recorded",
    respond: (request, fill) => {
      if (!offersTools(request) || isStep2(request)) return done(request);
      fill();
      return reply.text(LONG);
    },
  },
  {
    name: "filled by a tool (its result cannot be recorded)",
    respond: (request, _fill, filler) => {
      if (!offersTools(request) || isStep2(request) || lastIsToolResult(request))
        return done(request);
      const command = `head -c 100000000 /dev/zero > ${filler}; seq 1 3000`;
      return reply.toolCall("Bash", { command });
    },
  },
];
