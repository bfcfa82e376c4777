import { mkdtemp, readdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEngine } from "@z-engine/engine";
import { createFixtureRepo, reply, ScriptedModel } from "@z-engine/testkit";
import { jsonLinesStore } from "./json-lines-store.js";

const folder = await mkdtemp(join(tmpdir(), "my-sessions-")); // the host's own folder
// The same model answers the session-title request that follows the first turn.
const model = new ScriptedModel([reply.text("Hello."), reply.text("Greeting"), reply.text("Hi!")]);
const repo = await createFixtureRepo({ files: { "README.md": "# demo\n" } });
const store = jsonLinesStore(folder);
const engine = await createEngine({ ephemeral: true, clientFactory: () => model, store });
const first = await engine.createSession(repo.root);
await first.run("Say hello");
await first.close();
const again = await engine.openSession(first.id); // replayed from the JSON-lines file
const summary = await again.run("Say it again");
console.log(
  `${(await readdir(folder)).filter((f) => f.endsWith(".jsonl")).length} log, ${summary.outcome}`,
);
await engine.shutdown();
await repo.dispose();
