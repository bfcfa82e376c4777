import { appendFile, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { createEngine } from "@z-engine/engine";
import { createSessionStore, type LogName } from "@z-engine/store";
import { createFixtureRepo, reply, ScriptedModel } from "@z-engine/testkit";

// A store of one's own: a JSON-lines file per log in the host's folder; createSessionStore
// does the rest (records, replay, the working set, one writer per session, the chat list).
const dir = await mkdtemp(`${tmpdir()}/my-sessions-`);
const file = (log: LogName) =>
  `${dir}/${log.sessionId}${log.agentId ? `+${log.agentId}` : ""}.jsonl`;
const store = createSessionStore({
  append: (log, text) => appendFile(file(log), text),
  read: (log) => readFile(file(log), "utf8").catch(() => undefined),
  sessions: async () => (await readdir(dir)).flatMap((f) => /^([^+]+)\.jsonl$/.exec(f)?.[1] ?? []),
  remove: (id) => rm(file({ sessionId: id })), // this host's sessions have no subagents
});
// The same model answers the session-title request that follows the first turn.
const model = new ScriptedModel([reply.text("Hello."), reply.text("Greeting"), reply.text("Hi!")]);
const repo = await createFixtureRepo({ files: { "README.md": "# demo\n" } });
const engine = await createEngine({ ephemeral: true, clientFactory: () => model, store });
const first = await engine.createSession(repo.root);
await first.run("Say hello");
await first.close();
const again = await engine.openSession(first.id); // replayed from the JSON-lines file
const summary = await again.run("Say it again");
console.log(`${(await store.list()).length} session, ${summary.outcome}`); // 1 session, completed
await engine.shutdown();
await repo.dispose();
