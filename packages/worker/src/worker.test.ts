import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { ApprovalId } from "@z-engine/protocol";
import { INTERRUPTED_TOOL_RESULT } from "@z-engine/store";
import { afterEach, describe, expect, it } from "vitest";
import {
  connectWorkerClient,
  type FollowedEvent,
  type WorkerClient,
  type WorkerEvent,
} from "./index.js";
import { type Cluster, createCluster, postgresUrl, redisUrl } from "./test-support/cluster.js";

/** Reads a session's stream until `until` accepts an entry; resolves with every entry read. */
async function readUntil(
  stream: AsyncIterator<FollowedEvent>,
  until: (event: WorkerEvent) => boolean,
): Promise<WorkerEvent[]> {
  const seen: WorkerEvent[] = [];
  for (;;) {
    const next = await stream.next();
    if (next.done) throw new Error(`the stream ended; saw ${JSON.stringify(seen.map(kindOf))}`);
    seen.push(next.value.event);
    if (until(next.value.event)) return seen;
  }
}
const kindOf = (e: WorkerEvent) => (e.type === "event" ? e.envelope.event.type : e.type);
const isEvent = (type: string) => (e: WorkerEvent) =>
  e.type === "event" && e.envelope.event.type === type;

describe.skipIf(postgresUrl === null || redisUrl === null)("turns on worker processes", () => {
  let cluster: Cluster | undefined;
  let client: WorkerClient | undefined;
  const setup = async () => {
    cluster = await createCluster();
    client = await connectWorkerClient({ redis: redisUrl ?? "", queue: cluster.queue });
    return { cluster, client };
  };
  /** One worker, one session in a fresh project, and its stream read from the start. */
  const oneWorkerSession = async (mode: "ask" | "bypass") => {
    const { cluster, client } = await setup();
    await cluster.start("w1");
    const project = await cluster.project("app");
    const sessionId = await client.createSession(project, { mode });
    // From the stream's start: nothing the worker publishes is missed, whenever reading starts.
    const stream = client.follow(sessionId, { from: "0" })[Symbol.asyncIterator]();
    return { cluster, client, project, sessionId, stream };
  };
  afterEach(async () => {
    await client?.close();
    await cluster?.dispose();
    client = cluster = undefined;
  });

  it("runs a prompt on a worker, publishes its events, and takes an approval from another process", async () => {
    const { cluster, client, project, sessionId, stream } = await oneWorkerSession("ask");
    const { jobId, turnId } = await client.submit(sessionId, "RUN: touch approved.txt");
    const seen = await readUntil(stream, isEvent("approvalRequested"));
    const request = seen.at(-1);
    if (request?.type !== "event" || request.envelope.event.type !== "approvalRequested")
      throw new Error("no approval");
    const approvalId = request.envelope.event.approvalId as ApprovalId;
    expect(
      await client.send(sessionId, {
        type: "resolveApproval",
        approvalId,
        decision: { type: "allowOnce" },
      }),
    ).toBe(true);
    const result = await client.result(jobId);
    expect(result).toMatchObject({
      kind: "turn",
      sessionId,
      turnId,
      outcome: "completed",
      takeovers: 0,
    });
    expect(existsSync(join(project, "approved.txt"))).toBe(true);
    const rest = await readUntil(stream, (e) => e.type === "jobFinished");
    expect(rest.map(kindOf)).toEqual(
      expect.arrayContaining(["approvalResolved", "toolFinished", "turnFinished", "jobFinished"]),
    );
    // The session is free again: the store opens it, with the turn in its log.
    const { session, replay } = await cluster.store.open(sessionId);
    expect(replay.state.lastTurn).toMatchObject({ turnId, status: "ended", outcome: "completed" });
    await session.close();
  });

  it("takes over a SIGKILLed worker's job: resumes from the log, answers the cut call as interrupted, never runs it twice", async () => {
    const { cluster, client } = await setup();
    const workers = [await cluster.start("w1"), await cluster.start("w2")];
    const project = await cluster.project("app");
    const sessionId = await client.createSession(project, { mode: "bypass" });
    const stream = client.follow(sessionId, { from: "0" })[Symbol.asyncIterator]();
    const { jobId, turnId } = await client.submit(
      sessionId,
      "RUN: echo ran >> ledger.txt && echo started && sleep 30",
    );
    // The command has run its first part (its output is streaming) when the worker is killed.
    const seen = await readUntil(stream, isEvent("toolProgress"));
    const opened = seen.find((e) => e.type === "opened");
    if (opened?.type !== "opened") throw new Error("no opened entry");
    const running = workers.find((w) => w.name === opened.worker);
    running?.child.kill("SIGKILL");
    await running?.exited;
    const result = await client.result(jobId);
    expect(result).toMatchObject({
      kind: "turn",
      sessionId,
      outcome: "completed",
      takeovers: 1,
      alreadyDone: false,
    });
    expect(result.kind === "turn" && result.turnId).toBe(`${turnId}-c1`);
    const rest = await readUntil(stream, (e) => e.type === "jobFinished");
    const takeover = rest.find((e) => e.type === "opened");
    expect(takeover).toMatchObject({ type: "opened", takeover: true });
    expect(takeover?.type === "opened" && takeover.worker).not.toBe(opened.worker);
    const ledger = await readFile(join(project, "ledger.txt"), "utf8");
    expect(ledger).toBe("ran\n"); // ran once: the takeover answered the call, it did not run it again
    const { session, replay } = await cluster.store.open(sessionId);
    const results = replay.workingSet
      .flatMap((m) => m.content)
      .filter((b) => b.type === "toolResult");
    expect(results).toHaveLength(1);
    expect(JSON.stringify(results[0])).toContain(INTERRUPTED_TOOL_RESULT);
    const ends = replay.transcript
      .filter((r) => r.kind === "turnEnded")
      .map((r) => [r.turnId, r.outcome]);
    expect(ends).toEqual([
      [turnId, "interrupted"],
      [`${turnId}-c1`, "completed"],
    ]);
    await session.close();
  });

  it("cancels a running turn from another process: the command reaches the worker holding the session", async () => {
    const { client, sessionId, stream } = await oneWorkerSession("bypass");
    const { jobId } = await client.submit(sessionId, "RUN: echo started && sleep 30");
    await readUntil(stream, isEvent("toolProgress"));
    expect(await client.send(sessionId, { type: "cancel" })).toBe(true);
    expect(await client.result(jobId)).toMatchObject({ kind: "turn", outcome: "cancelled" });
    const rest = await readUntil(stream, (e) => e.type === "jobFinished");
    expect(rest.map(kindOf)).toEqual(expect.arrayContaining(["toolFinished", "turnFinished"]));
  });

  it("runs one session on one worker at a time, and fails bad jobs with the reason", async () => {
    const { cluster, client } = await setup();
    await cluster.start("w1", { concurrency: 2 });
    await cluster.start("w2", { concurrency: 2 });
    const project = await cluster.project("app");
    const sessionId = await client.createSession(project, { mode: "bypass" });
    const jobs = await Promise.all(
      [1, 2, 3, 4].map((i) =>
        client.submit(
          sessionId,
          `RUN: echo start${i} >> order.txt && sleep 0.2 && echo end${i} >> order.txt`,
        ),
      ),
    );
    const results = await Promise.all(jobs.map((j) => client.result(j.jobId)));
    expect(results.map((r) => r.kind === "turn" && r.outcome)).toEqual([
      "completed",
      "completed",
      "completed",
      "completed",
    ]);
    // Never two turns at once: every start is followed by its own end.
    const lines = (await readFile(join(project, "order.txt"), "utf8")).trim().split("\n");
    for (let i = 0; i < lines.length; i += 2)
      expect(lines[i + 1]).toBe(lines[i]?.replace("start", "end"));
    expect(lines).toHaveLength(8);
    const missing = await client.submit("ses_missing", "RUN: true");
    await expect(client.result(missing.jobId)).rejects.toThrow(/no session ses_missing/);
    await expect(client.createSession("/etc")).rejects.toThrow(
      /outside this worker's workspace roots/,
    );
    // A command that is not one is answered on the session's stream, while a worker holds it.
    expect(await client.send(sessionId, { type: "steer", text: "nobody runs it now" })).toBe(false);
  });
});
