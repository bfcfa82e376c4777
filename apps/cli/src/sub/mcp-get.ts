import { resolve } from "node:path";
import {
  type Env,
  loadSettings,
  mcpServerSources,
  resolvePaths,
  TrustStore,
} from "@z-engine/config";
import { EXIT } from "../exit-codes.js";
import type { Io } from "../output/result.js";

/** Header and env values are shown by name only: they often hold tokens. */
function shown(server: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...server };
  for (const key of ["env", "headers"])
    if (typeof out[key] === "object" && out[key] !== null)
      out[key] = Object.fromEntries(Object.keys(out[key] as object).map((k) => [k, "(set)"]));
  return out;
}

/**
 * `zeng mcp get NAME [--cwd DIR]`: the server's entry as the project's sessions see it
 * (project files only once the folder is trusted), with the file it comes from; env and
 * header values are not printed. Resolves 0, 1 for an unknown server, 2 for bad usage.
 */
export function runMcpGet(argv: readonly string[], io: Io, env: Env): number {
  const [name, ...rest] = argv;
  const cwd = rest[0] === "--cwd" && rest.length === 2 ? rest[1] : undefined;
  if (!name || name.startsWith("-") || (rest.length > 0 && cwd === undefined)) {
    io.stderr("zeng: mcp get: needs NAME [--cwd DIR]\n");
    return EXIT.usage;
  }
  const paths = resolvePaths(env);
  const projectRoot = resolve(cwd ?? process.cwd());
  const loaded = loadSettings({
    env,
    paths,
    projectRoot,
    trusted: new TrustStore(paths.trustFile),
  });
  const server = loaded.settings.mcp.servers[name];
  if (!server) {
    const known = Object.keys(loaded.settings.mcp.servers);
    io.stderr(
      `zeng: mcp get: no server ${JSON.stringify(name)}${known.length ? ` (known: ${known.join(", ")})` : ""}\n`,
    );
    return EXIT.failed;
  }
  const source = mcpServerSources(loaded.layers)[name];
  io.stdout(
    `${JSON.stringify({ name, ...shown(server as Record<string, unknown>), source: source?.file }, null, 2)}\n`,
  );
  return EXIT.ok;
}
