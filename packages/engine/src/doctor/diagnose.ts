import { type Env, loadSettings, type Paths, TrustStore } from "@z-engine/config";
import { detectSandbox, runGit } from "@z-engine/host";
import { detectProvider, resolveApiKey } from "@z-engine/llm";
import type { ProviderKind } from "@z-engine/protocol";
import { findRipgrep } from "@z-engine/tools";

/** One line of `zeng doctor`. */
export interface Diagnosis {
  /** What was looked at: `key`, `provider`, `git`, `sandbox`, `ripgrep`, `trust`, `settings`. */
  readonly name: string;
  /** `ok`: works; `warn`: works with a gap or is optional; `fail`: a run will not work. */
  readonly status: "ok" | "warn" | "fail";
  readonly detail: string;
}

/** What {@link diagnose} needs. */
export interface DiagnoseOptions {
  readonly paths: Paths;
  readonly env: Env;
  readonly projectRoot: string;
  /** Checks the provider answers; default `fetch`. Tests give a local server's URL instead. */
  readonly fetch?: typeof fetch;
  /** Milliseconds per network check (default 5,000). */
  readonly timeoutMs?: number;
}

const said = (error: unknown) => (error instanceof Error ? error.message : String(error));

async function provider(
  options: DiagnoseOptions,
  baseUrl: string | undefined,
  kind?: ProviderKind,
) {
  const detected = detectProvider({ kind, baseUrl });
  if (!detected.ok)
    return [{ name: "provider", status: "fail", detail: detected.message } as const];
  const { host } = detected.endpoint;
  const out: Diagnosis[] = [];
  try {
    const key = await resolveApiKey({ host, env: options.env, dataDir: options.paths.dataDir });
    out.push(
      key
        ? { name: "key", status: "ok", detail: `a key for ${host} from ${key.source}` }
        : {
            name: "key",
            status: "fail",
            detail: `no key for ${host} (zeng login, or ZENGINE_API_KEY)`,
          },
    );
  } catch (error) {
    out.push({ name: "key", status: "fail", detail: said(error) });
  }
  try {
    const response = await (options.fetch ?? fetch)(detected.endpoint.baseUrl, {
      method: "GET",
      signal: AbortSignal.timeout(options.timeoutMs ?? 5000),
    });
    out.push({
      name: "provider",
      status: "ok",
      detail: `${detected.endpoint.baseUrl} answered (HTTP ${response.status})`,
    });
  } catch (error) {
    out.push({
      name: "provider",
      status: "fail",
      detail: `${detected.endpoint.baseUrl}: ${said(error)}`,
    });
  }
  return out;
}

async function tools(options: DiagnoseOptions): Promise<Diagnosis[]> {
  const out: Diagnosis[] = [];
  try {
    // Only read-only commands run on a project's repository (host's git door).
    const git = await runGit(["rev-parse", "--is-inside-work-tree"], {
      repo: { kind: "user", folder: options.projectRoot },
      env: options.env,
      okCodes: [0, 128],
    });
    const inside = git.code === 0 && git.stdout.toString("utf8").trim() === "true";
    out.push({
      name: "git",
      status: inside ? "ok" : "warn",
      detail: inside
        ? "git runs; the folder is a git repository"
        : "git runs; the folder is not a git repository (no checkpoints of its history)",
    });
  } catch (error) {
    out.push({ name: "git", status: "fail", detail: said(error) });
  }
  const sandbox = await detectSandbox({ timeoutMs: options.timeoutMs ?? 5000 });
  out.push(
    sandbox.backend
      ? { name: "sandbox", status: "ok", detail: "the sandbox works" }
      : { name: "sandbox", status: "warn", detail: `no sandbox: ${sandbox.reason}` },
  );
  const rg = await findRipgrep(undefined, options.env.PATH);
  out.push(
    rg
      ? { name: "ripgrep", status: "ok", detail: rg }
      : {
          name: "ripgrep",
          status: "warn",
          detail: "not found: Grep and Glob walk the files themselves",
        },
  );
  return out;
}

/**
 * What `zeng doctor` reports for a project folder: the provider key and whether the provider
 * answers, git, the sandbox, ripgrep, trust and the settings' problems. Runs no program the
 * project names (git through host's door, read-only). Never rejects.
 */
export async function diagnose(options: DiagnoseOptions): Promise<Diagnosis[]> {
  const trust = new TrustStore(options.paths.trustFile);
  const loaded = loadSettings({
    env: options.env,
    paths: options.paths,
    projectRoot: options.projectRoot,
    trusted: trust,
  });
  const { provider: p } = loaded.settings;
  const out: Diagnosis[] = [
    ...(await provider(options, p.base_url, p.kind)),
    ...(await tools(options)),
  ];
  out.push(
    loaded.trusted
      ? { name: "trust", status: "ok", detail: `${options.projectRoot} is trusted` }
      : {
          name: "trust",
          status: "warn",
          detail: `${options.projectRoot} is not trusted${loaded.withheld.length ? ` (withheld: ${loaded.withheld.join(", ")})` : ""}: zeng trust`,
        },
  );
  for (const problem of loaded.problems)
    out.push({
      name: "settings",
      status: "warn",
      detail: `${problem.file}${problem.line ? `:${problem.line}` : ""}${problem.key ? ` ${problem.key}` : ""}: ${problem.message}`,
    });
  if (loaded.problems.length === 0)
    out.push({ name: "settings", status: "ok", detail: "no problems" });
  return out;
}
