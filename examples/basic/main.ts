import { createEngine, formatEvent } from "@z-engine/engine";
import { createFixtureRepo, ScriptedModel } from "@z-engine/testkit";
import { files, script } from "./script.js";

const repo = await createFixtureRepo({ files }); // a git repository whose test fails
const model = new ScriptedModel(script(repo.root)); // stands in for a real model
const engine = await createEngine({
  ephemeral: true, // temporary folders: nothing is written to the user's
  clientFactory: () => model, // or: provider: { kind, baseUrl, apiKey, model }
  settings: { permissions: { allow: ["Bash(npm test)"] } },
});
const session = await engine.createSession(repo.root, {
  ...{ trusted: true, verification: "auto", mode: "acceptEdits" }, // run checks after edits
  onEvent: ({ event }) => formatEvent(event) && console.log(formatEvent(event)),
});
const summary = await session.run("Fix the failing login test");
console.log(`${summary.outcome}: ${summary.badge.status}`); // completed: verified
await engine.shutdown();
await repo.dispose();
