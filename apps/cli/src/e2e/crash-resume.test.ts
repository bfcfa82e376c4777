import { existsSync, readFileSync } from "node:fs";
import { reply, waitForProcessExit } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { FORMATS, main, streamJson, type World, world } from "./cli.test.helpers.js";

let w: World | undefined;
let sleeper: number | undefined;
afterEach(async () => {
  if (sleeper !== undefined) {
    try {
      process.kill(sleeper, "SIGKILL");
    } catch {
      // already gone
    }
  }
  sleeper = undefined;
  await w?.dispose();
  w = undefined;
});

/** A Bash call that records each run, then waits on a long sleep whose pid it writes. */
const SLOW = "echo ran >> runs.log; sleep 30 & echo $! > sleep.pid; wait";

/** Resolves once the slow command has written its pid. */
async function sleepPid(w: World): Promise<number> {
  const file = w.repo.path("sleep.pid");
  const deadline = Date.now() + 15_000;
  while (!existsSync(file) || readFileSync(file, "utf8").trim() === "") {
    if (Date.now() > deadline) throw new Error("the command never started");
    await new Promise((r) => setTimeout(r, 10));
  }
  return Number(readFileSync(file, "utf8"));
}

describe.each(FORMATS)("SIGKILL in the middle of a tool call, then --resume, over %s", (format) => {
  it("closes the turn as interrupted, answers the call, sends a well-formed request, runs nothing twice", async () => {
    w = await world({ format });
    w.provider.push(main(reply.toolCall("Bash", { command: SLOW })), main(reply.text("Resumed.")));
    const first = w.spawn([
      "-p",
      "run the slow thing",
      "--output-format",
      "stream-json",
      "--permission-mode",
      "bypass",
    ]);
    const started = await first.waitForLine((l) => l.includes('"toolStarted"'));
    const sessionId = (JSON.parse(started) as { sessionId: string }).sessionId;
    const toolCallId = (JSON.parse(started) as { event: { toolCallId: string } }).event.toolCallId;
    sleeper = await sleepPid(w);
    first.child.kill("SIGKILL");
    expect((await first.done).signal).toBe("SIGKILL");

    const second = await w.run([
      "-p",
      "pick-up-where-you-left-off",
      "--resume",
      sessionId,
      "--output-format",
      "stream-json",
    ]);
    expect(second.code).toBe(0);
    const { result } = streamJson(second.stdout);
    expect(result).toMatchObject({ outcome: "completed", sessionId });

    const log = await w.log(sessionId);
    const ends = log.filter((r) => r.kind === "turnEnded").map((r) => r.outcome);
    expect(ends).toEqual(["interrupted", "completed"]);
    expect(readFileSync(w.repo.path("runs.log"), "utf8")).toBe("ran\n");

    const requests = w.mainRequests();
    expect(requests).toHaveLength(2);
    const body = JSON.stringify(requests[1]?.body);
    // The call is answered before the new prompt, in the wire format's own shape.
    const answer =
      format === "anthropic" ? `"tool_use_id":"${toolCallId}"` : `"tool_call_id":"${toolCallId}"`;
    expect(body).toContain(answer);
    expect(body.indexOf(answer)).toBeLessThan(body.indexOf("pick-up-where-you-left-off"));
    expect(body.split(toolCallId).length - 1).toBe(2);
  });
});

describe("SIGINT", () => {
  it("cancels the running tool call, writes the result and exits 130", async () => {
    w = await world({ format: "anthropic" });
    w.provider.push(main(reply.toolCall("Bash", { command: SLOW })));
    const child = w.spawn([
      "-p",
      "run the slow thing",
      "--output-format",
      "stream-json",
      "--permission-mode",
      "bypass",
    ]);
    await child.waitForLine((l) => l.includes('"toolStarted"'));
    sleeper = await sleepPid(w);
    child.child.kill("SIGINT");
    const run = await child.done;
    expect(run.code).toBe(130);
    const { envelopes, result } = streamJson(run.stdout);
    expect(result).toMatchObject({ outcome: "cancelled", reason: "cancelled by user" });
    const events = envelopes.map((e) => e.event);
    expect(events.find((e) => e.type === "toolFinished")).toMatchObject({ status: "cancelled" });
    expect(await waitForProcessExit(sleeper)).toBe(true);
    const log = await w.log(result.sessionId as string);
    expect(log.filter((r) => r.kind === "turnEnded").map((r) => r.outcome)).toEqual(["cancelled"]);
  });
});
