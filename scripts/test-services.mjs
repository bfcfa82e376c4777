// Real Postgres and Redis servers for the platform tests and benches: each started on a
// free loopback port in a temporary folder, stopped (and the folder removed) by `stop()`.
// Debian's postgresql and redis-server are installed by scripts/install-services.sh when
// missing (root with apt-get); where they cannot be, `start*` resolves `{ url: null, reason }`
// and the tests that need the server skip, printing the reason.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { chown, mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
let installed = false;

/** Runs install-services.sh once per process (a no-op when both servers are there). */
function ensureInstalled() {
  if (installed) return;
  installed = true;
  spawnSync("bash", [join(here, "install-services.sh")], { stdio: "inherit" });
}

/** The folder of Postgres's programs (initdb, pg_ctl), or undefined. */
function postgresBin() {
  const base = "/usr/lib/postgresql";
  if (existsSync(base)) {
    const versions = readdirSync(base)
      .filter((v) => existsSync(join(base, v, "bin", "initdb")))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0] !== undefined) return join(base, versions[0], "bin");
  }
  const found = spawnSync("sh", ["-c", "command -v initdb"], { encoding: "utf8" });
  return found.status === 0 ? dirname(found.stdout.trim()) : undefined;
}

/** A free TCP port on 127.0.0.1 (the OS's choice). */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** As root, Postgres's programs run as the `postgres` user (initdb refuses root). */
function postgresUser() {
  if (process.getuid?.() !== 0) return {};
  const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
  const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
  return { uid, gid };
}

function run(program, args, user) {
  const result = spawnSync(program, args, { ...user, encoding: "utf8", cwd: "/" });
  if (result.status !== 0)
    throw new Error(
      `${program} ${args.join(" ")} failed (${result.status}): ${result.stderr || result.stdout}`,
    );
}

/**
 * Starts a Postgres cluster (`initdb -A trust`, `pg_ctl start -w`) on a free loopback port.
 * `durable: false` (the tests' default) turns fsync off: a faster server whose commits are
 * still commits; benches pass `durable: true` for the real cost of a commit.
 * Resolves `{ url, stop }`, or `{ url: null, reason }` when Postgres cannot be had here.
 */
export async function startPostgres({ durable = false } = {}) {
  ensureInstalled();
  const bin = postgresBin();
  if (bin === undefined) return { url: null, reason: "Postgres (initdb) is not installed" };
  const user = postgresUser();
  const dir = await mkdtemp(join(tmpdir(), "zeng-pg-"));
  if (user.uid !== undefined) await chown(dir, user.uid, user.gid);
  const data = join(dir, "data");
  run(
    join(bin, "initdb"),
    ["-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C", "--no-sync"],
    user,
  );
  const settings = `-c listen_addresses=127.0.0.1 -k ${dir} -c max_connections=200${durable ? "" : " -c fsync=off -c full_page_writes=off"}`;
  let port;
  for (let attempt = 0; ; attempt++) {
    port = await freePort();
    try {
      run(
        join(bin, "pg_ctl"),
        [
          "start",
          "-w",
          "-t",
          "60",
          "-D",
          data,
          "-l",
          join(dir, "log"),
          "-o",
          `-p ${port} ${settings}`,
        ],
        user,
      );
      break;
    } catch (error) {
      if (attempt === 2) throw error; // the port was taken between the check and the start
    }
  }
  const stop = async () => {
    spawnSync(join(bin, "pg_ctl"), ["stop", "-m", "fast", "-w", "-D", data], { ...user, cwd: "/" });
    await rm(dir, { recursive: true, force: true });
  };
  return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, stop };
}

/**
 * Starts `redis-server` (no persistence) on a free loopback port as a child process, ready
 * once it says so. Resolves `{ url, stop }`, or `{ url: null, reason }` when Redis cannot be
 * had here.
 */
export async function startRedis() {
  ensureInstalled();
  if (spawnSync("sh", ["-c", "command -v redis-server"]).status !== 0)
    return { url: null, reason: "redis-server is not installed" };
  const dir = await mkdtemp(join(tmpdir(), "zeng-redis-"));
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    const args = [
      "--port",
      String(port),
      "--bind",
      "127.0.0.1",
      "--save",
      "",
      "--appendonly",
      "no",
      "--dir",
      dir,
    ];
    const child = spawn("redis-server", args, { stdio: ["ignore", "pipe", "pipe"] });
    const ready = await new Promise((resolve) => {
      let seen = "";
      child.stdout.on("data", (chunk) => {
        seen += chunk;
        if (seen.includes("Ready to accept connections")) resolve(true);
      });
      child.once("exit", () => resolve(false));
    });
    if (ready) {
      child.stdout.resume();
      child.stderr.resume();
      const stop = async () => {
        if (child.exitCode === null) {
          const exited = new Promise((resolve) => child.once("exit", resolve));
          child.kill("SIGTERM");
          await exited;
        }
        await rm(dir, { recursive: true, force: true });
      };
      return { url: `redis://127.0.0.1:${port}`, stop };
    }
    if (attempt === 2) throw new Error(`redis-server did not start on port ${port}`);
  }
}

/**
 * The body of a vitest global set-up: starts the named servers, provides each one's URL (or
 * null) as `postgresUrl` / `redisUrl` and the reason a missing one is skipped as
 * `postgresSkip` / `redisSkip`, and returns the teardown that stops them.
 */
export async function setupServices(project, names) {
  const stops = [];
  for (const name of names) {
    const started = name === "postgres" ? await startPostgres() : await startRedis();
    project.provide(`${name}Url`, started.url);
    project.provide(`${name}Skip`, started.reason ?? "");
    if (started.url === null)
      console.warn(`[${project.name}] ${name} tests skipped: ${started.reason}`);
    else stops.push(started.stop);
  }
  return async () => {
    for (const stop of stops) await stop();
  };
}
