import { existsSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import { parseEventEnvelopeJson } from "@z-engine/protocol";
import { reply } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { MAIN, main, type World, world } from "./cli.test.helpers.js";

// The bundle carries the engine's decision classifiers (dist/models/), so a native use runs
// in `zeng`: review_call's risky-call model turns an allowed `rm -rf src` into an Ask, which
// a headless run answers with a denial.

let w: World | undefined;
afterEach(async () => {
  await w?.dispose();
  w = undefined;
});

const settings = (mode: "on" | "off") =>
  [
    "[permissions]",
    'allow = ["Bash(rm -rf src)"]',
    "[decisions]",
    // The first model load on a loaded machine takes seconds.
    "timeout_ms = 10000",
    "[experimental]",
    `decisions_review_call = "${mode}"`,
  ].join("\n");

async function removeSrc(mode: "on" | "off") {
  w = await world({ format: "anthropic", userSettings: settings(mode) });
  w.provider.push(
    main(reply.toolCall("Bash", { command: "rm -rf src" })),
    main(reply.text("Cleaned up.")),
  );
  const run = await w.run(["-p", "clean up", "--output-format", "stream-json"]);
  expect(run.code, run.stderr).toBe(0);
  const events = run.stdout
    .trim()
    .split("\n")
    .slice(0, -1)
    .flatMap((line) => {
      const parsed = parseEventEnvelopeJson(line);
      return parsed.ok ? [parsed.value.event] : [];
    });
  return { events, srcLeft: existsSync(w.repo.path("src/auth/token.js")) };
}

describe("decision classifiers in the bundled zeng", { timeout: 120_000 }, () => {
  it("ships the .onnx files beside dist/main.js", async () => {
    expect((await readdir(join(dirname(MAIN), "models"))).sort()).toEqual([
      "credential.onnx",
      "risky-call.onnx",
    ]);
  });

  it("review_call On: the risky-call model turns the allowed `rm -rf src` into an Ask (denied headless)", async () => {
    const { events, srcLeft } = await removeSrc("on");
    const traces = events.flatMap((e) => (e.type === "decisionTraced" ? [e.trace] : []));
    expect(traces).toContainEqual(
      expect.objectContaining({ use: "review_call", outcome: "advice", applied: true }),
    );
    const finished = events.flatMap((e) => (e.type === "toolFinished" ? [e.status] : []));
    expect(finished).toEqual(["denied"]);
    expect(srcLeft).toBe(true);
  });

  it("review_call Off: the allowed call runs", async () => {
    const { events, srcLeft } = await removeSrc("off");
    expect(events.some((e) => e.type === "decisionTraced")).toBe(false);
    expect(events.flatMap((e) => (e.type === "toolFinished" ? [e.status] : []))).toEqual(["ok"]);
    expect(srcLeft).toBe(false);
  });
});
