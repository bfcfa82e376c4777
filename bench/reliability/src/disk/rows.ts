import { type FakeProviderRequest, reply, type ScriptReply } from "@z-engine/testkit";
import { offersTools } from "../wire/shape.js";
import { wireMessages } from "../wire/read.js";
import type { DeviceFault } from "./device.js";

/** One way the disk fails: how, when, what the model does, and what the turn must say. */
export interface DiskRow {
  readonly name: string;
  /** The device and its fault: a tmpfs that fills, or eio-fs failing the switch's words. */
  readonly fault: DeviceFault;
  /** What the failed turn's reason and the notice must say. */
  readonly says: RegExp;
  /** How the turn ends (default `failed`; `completed` has no reason to check). */
  readonly outcome?: "failed" | "completed";
  /** Fail the device before the turn starts (its first record, the long prompt, cannot fit). */
  readonly fillFirst?: boolean;
  /** Left out of the CI subset (disk.test.ts), which keeps one EIO row: the bench runs all. */
  readonly benchOnly?: boolean;
  /** Once healed, the same session runs step 2 before the engine shuts down (step 3 resumes). */
  readonly live?: boolean;
  /** The scripted model: `fill` fails the device now; `filler` is the filler file's path. */
  respond(request: FakeProviderRequest, fill: () => void, filler: string): ScriptReply;
}

const FULL = { kind: "full" } as const;
/** What a reason or notice says when the disk is full. */
const SAYS_FULL = /no space left on the device \(ENOSPC\)/;
/** What a reason or notice says on an I/O error. */
const SAYS_EIO = /an I\/O error on the device \(EIO\)/;

const LONG = `A long answer. ${"Every line of it must reach the log. ".repeat(300)}`;
const isStep2 = (request: FakeProviderRequest) =>
  wireMessages(request).some((m) => m.role === "user" && m.texts.some((t) => /step [23]/.test(t)));
const done = (request: FakeProviderRequest) =>
  reply.text(isStep2(request) ? "later step done" : "step 1 done");
const lastIsToolResult = (request: FakeProviderRequest) =>
  (wireMessages(request).at(-1)?.results.length ?? 0) > 0;

/** The model fails the device, then answers: its answer's record meets the fault. */
const failThenAnswer: DiskRow["respond"] = (request, fill) => {
  if (!offersTools(request) || isStep2(request)) return done(request);
  fill();
  return reply.text(LONG);
};

/**
 * The rows of the full-disk suite: the disk fills before the turn's first record, before
 * the model's answer is recorded, and by a tool's own writes (its result cannot be recorded);
 * eio-fs fails the answer's append with EIO, tears it (half the line reaches the disk) and
 * fails the turn's fsync. Each model answers later steps (once healed) with a plain text.
 */
export const DISK_ROWS: readonly DiskRow[] = [
  {
    name: "full before the turn starts",
    fault: FULL,
    says: SAYS_FULL,
    fillFirst: true,
    respond: (request) => done(request),
  },
  {
    name: "full before the model's answer is recorded",
    fault: FULL,
    says: SAYS_FULL,
    respond: failThenAnswer,
  },
  {
    name: "EIO on the model's answer's append",
    fault: { kind: "eio", words: "write create fsync" },
    says: SAYS_EIO,
    benchOnly: true,
    respond: failThenAnswer,
  },
  {
    name: "EIO after half the answer's line reached the disk, healed in the same session",
    fault: { kind: "eio", words: "torn truncate create fsync" },
    says: SAYS_EIO,
    live: true,
    respond: failThenAnswer,
  },
  {
    name: "EIO on the log's fsync at the turn's end",
    fault: { kind: "eio", words: "fsync" },
    says: /the session log could not be flushed to the disk: .*an I\/O error on the device \(EIO\)/,
    outcome: "completed",
    benchOnly: true,
    respond: failThenAnswer,
  },
  {
    name: "filled by a tool (its result cannot be recorded)",
    fault: FULL,
    says: SAYS_FULL,
    respond: (request, _fill, filler) => {
      if (!offersTools(request) || isStep2(request) || lastIsToolResult(request))
        return done(request);
      const command = `head -c 100000000 /dev/zero > ${filler}; seq 1 3000`;
      return reply.toolCall("Bash", { command });
    },
  },
];
