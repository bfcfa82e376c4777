import { fileURLToPath } from "node:url";
import pg from "pg";
import { type SessionLogs, readFileSessionLogs, readPostgresSessionLogs } from "./logs.js";
import { HostProcess } from "./process.js";
import { type CrashWorld, ZENG_BIN } from "./world.js";

/** How the harness starts a run and reads what it left, for one kind of store. */
export interface Driver {
  /** `file` (zeng -p over the file store) or `postgres` (the small host). */
  readonly store: "file" | "postgres";
  /** Starts one headless run of `prompt`, resuming `resume` when given. */
  start(world: CrashWorld, prompt: string, resume: string | undefined): HostProcess;
  /** Every log of the session, checked line by line. */
  logs(world: CrashWorld, sessionId: string): Promise<SessionLogs>;
  dispose(): Promise<void>;
}

/** Real `zeng -p` runs (stream-json, bypass mode) over the file store in the world's data folder. */
export function zengDriver(): Driver {
  return {
    store: "file",
    start: (world, prompt, resume) =>
      new HostProcess(
        process.execPath,
        [
          ZENG_BIN,
          "-p",
          prompt,
          "--output-format",
          "stream-json",
          "--permission-mode",
          "bypass",
          ...(resume ? ["--resume", resume] : []),
        ],
        world.env,
        world.repo.root,
      ),
    logs: (world, id) => readFileSessionLogs(world.dataDir, id),
    dispose: async () => {},
  };
}

// The built host (tests run from src/, the host always runs from dist/).
const PG_HOST = fileURLToPath(new URL("../../dist/hosts/pg-host.js", import.meta.url));

/** The Postgres host (`hosts/pg-host.ts`) over the store in `schema` of the server at `url`. */
export function postgresDriver(url: string, schema: string): Driver {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  return {
    store: "postgres",
    start: (world, prompt, resume) =>
      new HostProcess(
        process.execPath,
        [PG_HOST, JSON.stringify({ url, schema, project: world.repo.root, prompt, resume })],
        world.env,
        world.repo.root,
      ),
    logs: (_world, id) => readPostgresSessionLogs(pool, schema, id),
    dispose: () => pool.end(),
  };
}
