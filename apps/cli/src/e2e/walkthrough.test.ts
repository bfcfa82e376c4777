import { readFile } from "node:fs/promises";
import { reply } from "@z-engine/testkit";
import { EventRecorder } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { FORMATS, main, streamJson, type World, world } from "./cli.test.helpers.js";

let w: World | undefined;
afterEach(async () => {
  await w?.dispose();
  w = undefined;
});

const PROMPT = "The login test fails. Please fix it.";

/** The five rounds of how-it-works.md's walkthrough, for requests of the main agent. */
function walkthrough(path: (p: string) => string) {
  return [
    main(
      reply.toolCall("Verify", { checks: ["npm:test"] }, { usage: { input: 1000, output: 20 } }),
    ),
    main(
      reply.toolCalls([
        { name: "Grep", input: { pattern: "isExpired", path: path(".") } },
        { name: "Read", input: { file_path: path("src/auth/token.js") } },
        { name: "Read", input: { file_path: path("test/token.test.js") } },
      ]),
    ),
    main(
      reply.toolCall("Edit", {
        file_path: path("src/auth/token.js"),
        old_string: "now > token.expiresAt",
        new_string: "now >= token.expiresAt",
      }),
    ),
    main(reply.toolCall("Verify", { checks: ["npm:test"] })),
    main(
      reply.text("Fixed `isExpired`. The login test passes.", {
        usage: { input: 2000, output: 30 },
      }),
    ),
  ];
}

const EXPECTED_EVENTS = (w: World) =>
  [
    "turnStarted",
    "assistantStarted",
    "checkpointCreated",
    { type: "toolStarted", toolName: "Verify" },
    { type: "checkRecorded", record: { checkId: "npm:test", passed: false } },
    { type: "toolFinished", toolName: "Verify" },
    { type: "toolStarted", toolName: "Grep" },
    { type: "toolFinished", toolName: "Read" },
    { type: "toolFinished", toolName: "Edit", writtenPaths: [w.repo.path("src/auth/token.js")] },
    { type: "toolStarted", toolName: "Verify" },
    { type: "checkRecorded", record: { checkId: "npm:test", passed: true } },
    { type: "assistantFinished", stopReason: "endTurn" },
    { type: "verificationChanged", badge: { status: "verified" } },
    { type: "turnFinished", outcome: "completed", badge: { status: "verified" } },
  ] as const;

async function expectWalkthrough(w: World, mode: "bypass" | "acceptEdits") {
  const run = await w.run([
    "-p",
    PROMPT,
    "--output-format",
    "stream-json",
    "--permission-mode",
    mode,
  ]);
  // Nothing of ours on stderr; the Anthropic SDK's deprecation warning for the default model
  // may appear, once.
  expect(run.stderr).not.toContain("zeng:");
  expect(run.stderr.split("is deprecated").length).toBeLessThanOrEqual(2);
  expect(run.code).toBe(0);
  const { envelopes, result } = streamJson(run.stdout);
  expect(result).toMatchObject({
    type: "result",
    outcome: "completed",
    badge: { status: "verified" },
    usage: { input: 3000, output: 50 },
  });
  expect(typeof result.costUsd).toBe("number");
  expect(await w.repo.read("src/auth/token.js")).toContain("now >= token.expiresAt");
  const recorder = new EventRecorder();
  for (const e of envelopes) recorder.sink(e);
  recorder.expectSubsequence([...EXPECTED_EVENTS(w)]);
  expect(recorder.ofType("approvalRequested")).toHaveLength(0);
  const sessionId = result.sessionId as string;
  expect(envelopes.every((e) => e.sessionId === sessionId)).toBe(true);
  const log = await w.log(sessionId);
  const kinds = log.map((r) => r.kind);
  expect(kinds).toContain("turnEnded");
  expect(JSON.stringify(log)).toContain("now >= token.expiresAt");
  expect(w.mainRequests()).toHaveLength(5);
  return result;
}

describe.each(FORMATS)("the walkthrough through zeng -p over %s", (format) => {
  it("fixes the test in bypass mode and ends Verified", async () => {
    w = await world({ format });
    w.provider.push(...walkthrough((p) => (w as World).repo.path(p)));
    await expectWalkthrough(w, "bypass");
  });

  it("in acceptEdits a user rule allows the test command, and nothing asks", async () => {
    w = await world({ format, userSettings: '[permissions]\nallow = ["Bash(npm test:*)"]\n' });
    w.provider.push(...walkthrough((p) => (w as World).repo.path(p)));
    const result = await expectWalkthrough(w, "acceptEdits");
    const meta = JSON.parse(
      await readFile(`${w.env.ZENGINE_HOME}/sessions/${result.sessionId}/meta.json`, "utf8"),
    ) as { lastTurn: string };
    expect(meta.lastTurn).toBe("completed");
  });
});
