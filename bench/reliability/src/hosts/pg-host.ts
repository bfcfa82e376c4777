// A small host like `zeng -p` over the Postgres store, for the crash fuzz (the CLI takes no
// store): node dist/hosts/pg-host.js '{"url","schema","project","prompt","resume"?}'
// Settings, provider and model come from the environment and its config folder, as zeng's do.
// Events go to stdout as stream-json lines (written synchronously), then one result line.
import { writeSync } from "node:fs";
import { resolvePaths } from "@z-engine/config";
import { createEngine, type SessionHandle } from "@z-engine/engine";
import { StoreError } from "@z-engine/store";
import { createPostgresStore } from "@z-engine/store-postgres";

interface HostArgs {
  readonly url: string;
  readonly schema: string;
  readonly project: string;
  readonly prompt: string;
  readonly resume?: string;
}

const args = JSON.parse(process.argv[2] ?? "{}") as HostArgs;
const line = (value: unknown) => writeSync(1, `${JSON.stringify(value)}\n`);
const env = process.env as Record<string, string>;
// A short lease: a killed host's session is taken over 1.5 s later.
const store = await createPostgresStore({
  connectionString: args.url,
  schema: args.schema,
  leaseMs: 1500,
  max: 4,
});
const engine = await createEngine({
  paths: resolvePaths(env),
  env,
  store,
  headless: true,
  catalogSource: "settings",
  onEvent: line,
});

/** Opens the session, waiting out a killed writer's lease (a real host would retry too). */
async function open(id: string): Promise<SessionHandle> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      return await engine.openSession(id, { mode: "bypass" });
    } catch (error) {
      const locked = error instanceof StoreError && error.code === "locked";
      if (!locked || Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

let code = 1;
try {
  const session = args.resume
    ? await open(args.resume)
    : await engine.createSession(args.project, { mode: "bypass" });
  const summary = await session.run(args.prompt);
  line({ type: "result", outcome: summary.outcome, reason: summary.reason, sessionId: session.id });
  code = summary.outcome === "completed" ? 0 : 1;
} catch (error) {
  process.stderr.write(`pg-host: ${(error as Error).message}\n`);
}
await engine.shutdown();
await store.close();
process.exit(code);
