import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createPostgresStore, type PostgresSessionStore } from "@z-engine/store-postgres";
import { inject } from "vitest";
import type { WorkerProcessConfig } from "./worker-process.js";

const provided = inject as (key: string) => unknown;
/** The test servers (null where they cannot be had) and why not. */
export const postgresUrl = provided("postgresUrl") as string | null;
export const redisUrl = provided("redisUrl") as string | null;
export const skipReason = [provided("postgresSkip"), provided("redisSkip")]
  .filter(Boolean)
  .join("; ");
if (postgresUrl === null || redisUrl === null) console.warn(`worker tests skipped: ${skipReason}`);

const script = join(
  dirname(fileURLToPath(import.meta.url)),
  "..",
  "..",
  "dist",
  "test-support",
  "worker-process.js",
);

/** A worker process of the cluster. */
export interface WorkerProcess {
  readonly name: string;
  readonly child: ChildProcess;
  /** Resolves once the process exited. */
  readonly exited: Promise<unknown>;
}

/** One test's cluster: a schema, a queue, a workspace folder, and worker processes on them. */
export interface Cluster {
  readonly schema: string;
  readonly queue: string;
  readonly workspace: string;
  /** A store on the cluster's schema, as a host has it (closed by `dispose`). */
  readonly store: PostgresSessionStore;
  /** Makes a project folder in the workspace. */
  project(name: string): Promise<string>;
  start(name: string, options?: Partial<WorkerProcessConfig>): Promise<WorkerProcess>;
  dispose(): Promise<void>;
}

/** Creates a cluster; `leaseMs` and `lockDurationMs` are short so that takeovers are quick. */
export async function createCluster(
  timing = { leaseMs: 1000, lockDurationMs: 1000 },
): Promise<Cluster> {
  const id = randomBytes(5).toString("hex");
  const schema = `w_${id}`;
  const queue = `q-${id}`;
  const workspace = await mkdtemp(join(tmpdir(), "zeng-workspace-"));
  const store = await createPostgresStore({ connectionString: postgresUrl ?? "", schema, max: 3 });
  const children: WorkerProcess[] = [];
  return {
    schema,
    queue,
    workspace,
    store,
    async project(name) {
      const dir = join(workspace, name);
      await mkdir(dir, { recursive: true });
      return dir;
    },
    async start(name, options = {}) {
      const config: WorkerProcessConfig = {
        postgresUrl: postgresUrl ?? "",
        redis: redisUrl ?? "",
        schema,
        queue,
        workspaceRoot: workspace,
        name,
        ...timing,
        ...options,
      };
      const child = spawn(process.execPath, [script, JSON.stringify(config)], {
        stdio: ["ignore", "pipe", "inherit"],
      });
      const exited = once(child, "exit");
      const process_ = { name, child, exited };
      children.push(process_);
      await new Promise<void>((resolve, reject) => {
        let seen = "";
        child.stdout?.on("data", (chunk: Buffer) => {
          seen += chunk.toString();
          if (seen.includes("ready")) resolve();
        });
        void exited.then(() => reject(new Error(`worker ${name} exited before it was ready`)));
      });
      return process_;
    },
    async dispose() {
      for (const c of children)
        if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill("SIGKILL");
      await Promise.all(children.map((c) => c.exited));
      await store.pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await store.close();
      await rm(workspace, { recursive: true, force: true });
    },
  };
}
