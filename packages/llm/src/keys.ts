import { chmod, mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { lazily } from "@z-engine/protocol";
import { z } from "zod";
import { LlmError } from "./errors.js";
import { isAnthropicHost, type ProviderKind } from "./provider.js";

/** The environment keys are read from (passed in, never `process.env` implicitly). */
export type Env = Readonly<Record<string, string | undefined>>;

/** `auth.json`: keys per host. */
export const AuthFile = lazily(() => z.record(z.string(), z.object({ apiKey: z.string().min(1) })));
export type AuthFile = z.infer<typeof AuthFile>;

/** A key and where it came from. */
export interface ResolvedKey {
  key: string;
  source: string;
}

/** The file name of the key store in the data folder. */
export const AUTH_FILE = "auth.json";

const HOST_VARIABLES: Array<[(hostname: string) => boolean, string]> = [
  [isAnthropicHost, "ANTHROPIC_API_KEY"],
  [(h) => h === "api.openai.com", "OPENAI_API_KEY"],
  [(h) => h === "openrouter.ai" || h.endsWith(".openrouter.ai"), "OPENROUTER_API_KEY"],
  [(h) => h === "generativelanguage.googleapis.com", "GEMINI_API_KEY"],
  [(h) => h === "api.groq.com", "GROQ_API_KEY"],
  [(h) => h === "api.deepseek.com", "DEEPSEEK_API_KEY"],
  [(h) => h === "api.mistral.ai", "MISTRAL_API_KEY"],
  [(h) => h === "api.x.ai", "XAI_API_KEY"],
];

/**
 * The provider's own key variable for a host (`ANTHROPIC_API_KEY` for hosts on
 * anthropic.com, `OPENAI_API_KEY` for api.openai.com, ...), or undefined for any other host:
 * a provider's key is never sent to somebody else's server.
 */
export function providerKeyVariable(host: string): string | undefined {
  const hostname = host.replace(/:\d+$/, "").toLowerCase();
  return HOST_VARIABLES.find(([test]) => test(hostname))?.[1];
}

/**
 * Reads `auth.json` from the data folder. A missing file is `{}`; a file that does not parse
 * throws an `LlmError` (code `authFile`) naming it, so a damaged key store is reported, not
 * silently replaced.
 */
export async function readAuthFile(dataDir: string): Promise<AuthFile> {
  const path = join(dataDir, AUTH_FILE);
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw new LlmError("authFile", `cannot read ${path}`, { cause: error });
  }
  try {
    return AuthFile.parse(JSON.parse(text));
  } catch (error) {
    throw new LlmError(
      "authFile",
      `${path} is damaged: expected { "<host>": { "apiKey": "..." } }`,
      { cause: error },
    );
  }
}

/**
 * Stores `apiKey` for `host` in `auth.json` (created with mode 0600, rewritten atomically,
 * other hosts kept). Throws an `LlmError` (code `authFile`) when the folder cannot be written
 * or the existing file is damaged.
 */
export async function saveApiKey(dataDir: string, host: string, apiKey: string): Promise<void> {
  const keys = await readAuthFile(dataDir);
  keys[host.toLowerCase()] = { apiKey };
  const path = join(dataDir, AUTH_FILE);
  const temp = `${path}.${process.pid}.tmp`;
  try {
    await mkdir(dataDir, { recursive: true, mode: 0o700 });
    await writeFile(temp, `${JSON.stringify(keys, null, 2)}\n`, { mode: 0o600 });
    await chmod(temp, 0o600);
    await rename(temp, path);
  } catch (error) {
    throw new LlmError("authFile", `cannot write ${path}`, { cause: error });
  }
}

/** Where {@link resolveApiKey} looks. */
export interface KeyLookup {
  /** The host requests go to (`URL.host`). */
  host: string;
  env: Env;
  /** The data folder holding `auth.json`; without it the file is not consulted. */
  dataDir?: string | undefined;
  /** The kind, for the message when nothing is found. */
  kind?: ProviderKind;
}

/**
 * The key for a host: `ZENGINE_API_KEY`, then the provider's own variable (only for that
 * provider's host), then `auth.json`'s entry for exactly this host. Undefined when none is
 * set. Rejects only with an `LlmError` when auth.json is damaged or unreadable.
 */
export async function resolveApiKey(lookup: KeyLookup): Promise<ResolvedKey | undefined> {
  const direct = lookup.env.ZENGINE_API_KEY;
  if (direct) return { key: direct, source: "ZENGINE_API_KEY" };
  const variable = providerKeyVariable(lookup.host);
  const own = variable ? lookup.env[variable] : undefined;
  if (variable && own) return { key: own, source: variable };
  if (lookup.dataDir === undefined) return undefined;
  const stored = (await readAuthFile(lookup.dataDir))[lookup.host.toLowerCase()];
  return stored ? { key: stored.apiKey, source: AUTH_FILE } : undefined;
}
