import { reply } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { FORMATS, main, streamJson, type World, world } from "./cli.test.helpers.js";

let w: World | undefined;
afterEach(async () => {
  await w?.dispose();
  w = undefined;
});

describe.each(FORMATS)("ask mode without rules over %s", (format) => {
  it("denies the call with a reason, answers it, and the turn still ends cleanly", async () => {
    w = await world({ format });
    w.provider.push(
      main(reply.toolCall("Verify", { checks: ["npm:test"] })),
      main(reply.text("I could not run the tests: nobody approved them.")),
    );
    const run = await w.run(["-p", "run the tests", "--output-format", "stream-json"]);
    expect(run.code).toBe(0);
    const { envelopes, result } = streamJson(run.stdout);
    expect(result).toMatchObject({ outcome: "completed", badge: { status: "notApplicable" } });
    const events = envelopes.map((e) => e.event);
    const resolved = events.find((e) => e.type === "approvalResolved");
    expect(resolved).toMatchObject({
      decision: { type: "deny" },
      by: "headless",
      reason: "no one to ask in headless mode",
    });
    expect(events.filter((e) => e.type === "checkRecorded")).toHaveLength(0);
    expect(events.find((e) => e.type === "toolFinished")).toMatchObject({ status: "denied" });
    // The denial went back to the model as the call's result, and the request was well formed.
    const second = JSON.stringify(w.mainRequests()[1]?.body);
    expect(second).toContain("no one to ask in headless mode");
    expect(w.mainRequests()).toHaveLength(2);
  });
});

describe("text output in ask mode", () => {
  it("streams the answer to stdout and reports the denial and the footer on stderr", async () => {
    w = await world({ format: "anthropic" });
    w.provider.push(
      main(reply.toolCall("Bash", { command: "rm -rf build" })),
      main(reply.text("Nothing was removed.")),
    );
    const run = await w.run(["-p", "clean up"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("Nothing was removed.\n");
    expect(run.stderr).toContain("? Bash rm -rf build");
    expect(run.stderr).not.toContain("Bash denied");
    expect(run.stderr).toContain("└ denied: no one to ask in headless mode");
    expect(run.stderr).toMatch(/── completed · no badge .*· session ses_/);
  });
});
