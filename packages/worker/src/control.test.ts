import { randomBytes } from "node:crypto";
import type { EngineCommand } from "@z-engine/protocol";
import { Redis } from "ioredis";
import { afterEach, describe, expect, it } from "vitest";
import { ControlRouter } from "./control.js";
import type { WorkerEvent } from "./jobs.js";
import { keysOf } from "./keys.js";
import { redisUrl } from "./test-support/cluster.js";

describe.skipIf(redisUrl === null)("commands routed to a session a worker runs", () => {
  const connections: Redis[] = [];
  const connect = () => {
    const redis = new Redis(redisUrl ?? "", { maxRetriesPerRequest: null });
    connections.push(redis);
    return redis;
  };
  afterEach(async () => {
    await Promise.all(connections.splice(0).map((c) => c.quit().catch(() => {})));
  });

  it("passes stopAgent and the turn's controls to the session; anything else is rejected", async () => {
    const keys = keysOf({ queue: `control-${randomBytes(4).toString("hex")}` });
    const published: WorkerEvent[] = [];
    const router = new ControlRouter(connect(), keys, (_, event) => published.push(event));
    const received: EngineCommand[] = [];
    // Messages on one channel arrive in order: the interrupt, sent last, comes after the rest.
    let delivered = () => {};
    const last = new Promise<void>((resolve) => {
      delivered = resolve;
    });
    await router.attach("ses_a", {
      send: (command) => {
        received.push(command);
        if (command.type === "interrupt") delivered();
      },
    });
    const publisher = connect();
    const channel = keys.control("ses_a");
    await publisher.publish(channel, JSON.stringify({ type: "stopAgent", agentId: "agt_1" }));
    await publisher.publish(channel, JSON.stringify({ type: "runCommand", name: "cost" }));
    await publisher.publish(channel, JSON.stringify({ type: "interrupt" }));
    await last;
    expect(received).toEqual([{ type: "stopAgent", agentId: "agt_1" }, { type: "interrupt" }]);
    expect(published).toEqual([
      {
        type: "rejected",
        reason: "runCommand is not sent to a running session (a prompt is a job: submit it)",
      },
    ]);
  });
});
