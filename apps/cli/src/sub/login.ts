import { createInterface } from "node:readline";
import { type Env, resolvePaths } from "@z-engine/config";
import { storeProviderKey } from "@z-engine/engine";
import { EXIT } from "../exit-codes.js";
import type { Stdin } from "../headless-input.js";
import type { Io } from "../output/result.js";

async function readKey(stdin: Stdin, io: Io): Promise<string> {
  if (stdin.isTTY) io.stderr("Paste your API key and press Enter: ");
  let text = "";
  for await (const line of createInterface({ input: stdin, crlfDelay: Number.POSITIVE_INFINITY })) {
    text = line;
    if (stdin.isTTY || text.trim() !== "") break;
  }
  return text.trim();
}

/**
 * `zeng login`: reads an API key (typed at a terminal, else the first non-empty line of
 * stdin) and stores it in the data folder's auth.json (mode 0600) for the provider the
 * user's settings and `ZENGINE_*` variables name. Resolves 0, 2 for bad usage or no key, 1
 * when it cannot be stored.
 */
export async function runLogin(
  argv: readonly string[],
  io: Io,
  env: Env,
  stdin: Stdin,
): Promise<number> {
  if (argv.length > 0) {
    io.stderr(`zeng: login takes no arguments (the key is read from stdin)\n`);
    return EXIT.usage;
  }
  const key = await readKey(stdin, io);
  if (key === "" || /\s/.test(key)) {
    io.stderr("zeng: login: no API key on stdin (one line, no spaces)\n");
    return EXIT.usage;
  }
  try {
    const stored = await storeProviderKey({ paths: resolvePaths(env), env }, key);
    io.stdout(`Stored the key for ${stored.host} in ${stored.file}.\n`);
    return EXIT.ok;
  } catch (error) {
    io.stderr(`zeng: login: ${(error as Error).message}\n`);
    return EXIT.failed;
  }
}
