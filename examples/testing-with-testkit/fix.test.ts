import { createEngine } from "@z-engine/engine";
import { createFixtureRepo, EventRecorder, ScriptedModel } from "@z-engine/testkit";
import { expect, test } from "vitest";
import { files, script } from "./script.js";

test("the agent fixes sum() and the turn ends Verified", { timeout: 60_000 }, async () => {
  const repo = await createFixtureRepo({ files });
  const model = new ScriptedModel(script(repo.path));
  const recorder = new EventRecorder();
  const engine = await createEngine({
    ephemeral: true,
    clientFactory: () => model,
    settings: { permissions: { allow: ["Bash(npm test)"] } },
  });
  const session = await engine.createSession(repo.root, {
    ...{ trusted: true, verification: "auto", mode: "acceptEdits" },
    onEvent: recorder.sink,
  });
  const summary = await session.run("Fix sum");
  expect(summary.badge.status).toBe("verified");
  expect(recorder.ofType("checkRecorded").at(-1)?.record.passed).toBe(true);
  await engine.shutdown();
  await repo.dispose();
});
