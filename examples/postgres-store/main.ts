import { createEngine } from "@z-engine/engine";
import { createPostgresStore } from "@z-engine/store-postgres";
import { createFixtureRepo, reply, ScriptedModel } from "@z-engine/testkit";

// The own-store example's host code on Postgres: only the store changes. The database's URL
// is the argument (scripts/examples.sh starts a server on loopback and passes it).
const url = process.argv[2];
if (!url) {
  console.log("skipped: no Postgres URL given (node main.js postgres://user@host:port/db)");
  process.exit(0);
}
const store = await createPostgresStore({ connectionString: url, schema: "example" });
// The same model answers the session-title request that follows the first turn.
const model = new ScriptedModel([reply.text("Hello."), reply.text("Greeting"), reply.text("Hi!")]);
const repo = await createFixtureRepo({ files: { "README.md": "# demo\n" } });
const engine = await createEngine({ ephemeral: true, clientFactory: () => model, store });
const first = await engine.createSession(repo.root);
await first.run("Say hello");
await first.close(); // releases the session's lease
const again = await engine.openSession(first.id); // resumed from its rows
const summary = await again.run("Say it again");
const listed = (await store.list()).filter((s) => s.id === first.id).length;
console.log(`${listed} session, ${summary.outcome}`); // 1 session, completed
await engine.shutdown();
await store.close();
await repo.dispose();
