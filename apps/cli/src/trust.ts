import { realpath, stat } from "node:fs/promises";
import { resolve } from "node:path";
import { type Env, loadSettings, resolvePaths, TrustStore } from "@z-engine/config";
import { EXIT } from "./exit-codes.js";
import type { Io } from "./output/result.js";

/**
 * `zeng trust [DIR]`: records the folder (default: the working directory) as trusted in
 * `<data>/trust.json` and lists the trust-gated settings of its project files that now
 * apply. Resolves with the exit code: 2 for a folder that does not exist, 1 when trust.json
 * cannot be written.
 */
export async function runTrust(dir: string | undefined, io: Io, env: Env): Promise<number> {
  const given = dir ?? process.cwd();
  const info = await stat(resolve(given)).catch(() => undefined);
  if (!info?.isDirectory()) {
    io.stderr(`zeng: trust ${given}: no such folder\n`);
    return EXIT.usage;
  }
  const folder = await realpath(resolve(given));
  const paths = resolvePaths(env);
  const store = new TrustStore(paths.trustFile);
  const before = loadSettings({ env, paths, projectRoot: folder, trusted: false });
  try {
    await store.trust(folder);
  } catch (error) {
    const cause = (error as Error & { cause?: Error }).cause?.message;
    io.stderr(`zeng: ${(error as Error).message}${cause ? `: ${cause}` : ""}\n`);
    return EXIT.failed;
  }
  io.stdout(`Trusted ${folder}\n`);
  if (before.withheld.length === 0) {
    io.stdout("Its project settings set nothing that needed trust.\n");
  } else {
    io.stdout(`Its project settings now apply for: ${before.withheld.join(", ")}\n`);
  }
  const { mcpVariablesReport, replacedMcpServers, replacedServersText } = await import(
    "@z-engine/engine"
  );
  const replaced = replacedServersText(replacedMcpServers(before.layers));
  if (replaced) io.stdout(`${replaced}\n`);
  const variables = mcpVariablesReport(folder, before);
  if (variables) io.stdout(`${variables}\n`);
  for (const p of before.problems) io.stderr(`zeng: warning: ${p.file}: ${p.message}\n`);
  return EXIT.ok;
}
