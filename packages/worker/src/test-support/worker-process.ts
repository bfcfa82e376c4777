// A worker process for the tests and the cluster bench: node dist/test-support/worker-process.js '<json>'.
// Prints "ready <name>" once it takes jobs; SIGTERM closes it, SIGKILL is what the tests send.
import { createPostgresStore } from "@z-engine/store-postgres";
import { startWorker } from "../index.js";
import { offModel, ruleModel } from "./rule-model.js";

/** What the parent passes as the one argument (JSON). */
export interface WorkerProcessConfig {
  readonly postgresUrl: string;
  readonly schema: string;
  readonly redis: string;
  readonly queue: string;
  readonly workspaceRoot: string;
  readonly leaseMs: number;
  readonly lockDurationMs: number;
  readonly concurrency?: number;
  readonly name: string;
}

const config = JSON.parse(process.argv[2] ?? "{}") as WorkerProcessConfig;
const store = await createPostgresStore({
  connectionString: config.postgresUrl,
  schema: config.schema,
  leaseMs: config.leaseMs,
  owner: config.name,
});
const worker = await startWorker({
  redis: config.redis,
  queue: config.queue,
  store,
  name: config.name,
  workspaceRoots: [config.workspaceRoot],
  lockDurationMs: config.lockDurationMs,
  stalledIntervalMs: Math.max(100, Math.floor(config.lockDurationMs / 4)),
  lockedRetryMs: 100,
  concurrency: config.concurrency ?? 4,
  engine: {
    ephemeral: true,
    checkpoints: false,
    repoMap: false,
    clientFactory: ({ role }) => (role === "main" ? ruleModel() : offModel),
  },
});
process.on("SIGTERM", () => {
  void worker
    .close()
    .then(() => store.close())
    .then(() => process.exit(0));
});
process.stdout.write(`ready ${worker.name}\n`);
