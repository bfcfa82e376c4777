// Runs a command with the URL of a Postgres server started for it on loopback
// (scripts/test-services.mjs) as its last argument, then stops the server. Where Postgres
// cannot be had, the command runs without it (the example then says it skipped, and why).
//   node scripts/with-postgres.mjs node build/postgres-store/main.js
import { spawn } from "node:child_process";
import { once } from "node:events";
import { startPostgres } from "./test-services.mjs";

const [command, ...args] = process.argv.slice(2);
const server = await startPostgres();
if (server.url === null) console.error(`with-postgres: ${server.reason}`);
const child = spawn(command, server.url === null ? args : [...args, server.url], {
  stdio: "inherit",
});
const [code] = await once(child, "exit");
await server.stop?.();
process.exit(code ?? 1);
