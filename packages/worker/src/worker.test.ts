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
  afterEach(async () => {
    await client?.close();
    await cluster?.dispose();
    client = cluster = undefined;
  });

  it("runs a prompt on a worker, publishes its events, and takes an approval from another process", async () => {
    const { cluster, client } = await setup();
    await cluster.start("w1");
    const project = await cluster.project("app");
    const sessionId = await client.createSession(project, { mode: "ask" });
    // From the stream's start: nothing the worker publishes is missed, whenever reading starts.
    const stream = client.follow(sessionId, { from: "0" })[Symbol.asyncIterator]();
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
});

void readFile;
void INTERRUPTED_TOOL_RESULT;
