// The MCP conformance suite (@modelcontextprotocol/conformance, pinned in install.mjs) run
// against Z Engine's client (adapter.ts): every client scenario, or a subset. The framework
// runs on Node 22 (installed locally by install.mjs); the client under test on this Node.
// Run: pnpm --filter @z-engine/engine exec tsx bench/conformance/run.ts [all|core|auth|NAME...]
// Prints one line per scenario and `BENCH engine.mcp.conformance <passed> scenarios`; exits 1
// when a scenario that applies fails.
import { spawn } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
// @ts-expect-error: a plain script beside this one (no types).
import { ensureInstalled } from "./install.mjs";

const here = dirname(fileURLToPath(import.meta.url));

/** The client scenarios that need no authorization server. */
export const CORE_SCENARIOS = [
  "initialize",
  "tools_call",
  "elicitation-sep1034-client-defaults",
  "sse-retry",
];

/** Scenarios that cannot apply to Z Engine, with the reason (also in the integrations README). */
export const NOT_APPLICABLE: Readonly<Record<string, string>> = {};

/** One scenario's verdict. */
export interface ScenarioResult {
  readonly scenario: string;
  readonly passed: boolean;
  readonly checks: number;
  /** The failed and warning checks, with their messages. */
  readonly problems: readonly string[];
  readonly ms: number;
}

interface Check {
  readonly id: string;
  readonly status: string;
  readonly description?: string;
  readonly errorMessage?: string;
}

/** The scenario names the installed framework lists for clients. */
export async function clientScenarios(): Promise<string[]> {
  const { node22, conformance } = ensureInstalled() as { node22: string; conformance: string };
  const out = await run(node22, [conformance, "list", "--client"], here);
  return [...out.stdout.matchAll(/^\s+- (\S+)/gm)].map((m) => m[1] as string);
}

function run(
  program: string,
  args: string[],
  cwd: string,
): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(program, args, {
      cwd,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env },
    });
    let stdout = "";
    child.stdout.on("data", (c: Buffer) => {
      stdout += c.toString();
    });
    child.stderr.on("data", (c: Buffer) => {
      stdout += c.toString();
    });
    child.on("close", (code) => resolve({ code: code ?? 1, stdout }));
  });
}

/** The checks.json the framework wrote for a scenario under `dir`. */
async function checksOf(dir: string): Promise<Check[]> {
  const found: Check[] = [];
  for (const entry of await readdir(dir, { recursive: true }).catch(() => [] as string[]))
    if (entry.endsWith("checks.json"))
      found.push(...(JSON.parse(await readFile(join(dir, entry), "utf8")) as Check[]));
  return found;
}

/** Runs one scenario against the adapter and reads its checks (passed: no failure, no warning). */
export async function runScenario(scenario: string, timeoutMs = 30_000): Promise<ScenarioResult> {
  const { node22, conformance } = ensureInstalled() as { node22: string; conformance: string };
  const out = await mkdtemp(join(tmpdir(), "zeng-conformance-"));
  const started = Date.now();
  // Plain Node on the built packages: the client starts as zeng's would, nothing compiled on the way.
  const command = `${process.execPath} ${join(here, "adapter.mjs")}`;
  try {
    const result = await run(
      node22,
      [
        conformance,
        "client",
        "--command",
        command,
        "--scenario",
        scenario,
        "--timeout",
        String(timeoutMs),
        "--output-dir",
        out,
      ],
      out,
    );
    const checks = await checksOf(out);
    const problems = checks
      .filter((c) => c.status === "FAILURE" || c.status === "WARNING")
      .map((c) => `${c.status} ${c.id}: ${c.errorMessage ?? c.description ?? ""}`);
    const clientFailed = /CLIENT EXITED WITH ERROR|timed out/i.test(result.stdout);
    if (clientFailed)
      problems.push(
        `client: ${result.stdout
          .split("\n")
          .filter((l) => /adapter:|Error|timed out/.test(l))
          .slice(0, 5)
          .join(" | ")}`,
      );
    return {
      scenario,
      passed: problems.length === 0 && checks.length > 0,
      checks: checks.length,
      problems,
      ms: Date.now() - started,
    };
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}

/** Runs scenarios, `concurrency` at a time, in the order given. */
export async function runScenarios(
  names: readonly string[],
  concurrency = 1,
): Promise<ScenarioResult[]> {
  const results: ScenarioResult[] = new Array(names.length);
  let next = 0;
  const worker = async () => {
    while (next < names.length) {
      const i = next++;
      results[i] = await runScenario(names[i] as string);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, names.length) }, worker));
  return results;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const all = await clientScenarios();
  const wanted =
    args.length === 0 || args[0] === "all"
      ? all
      : args[0] === "core"
        ? CORE_SCENARIOS
        : args[0] === "auth"
          ? all.filter((s) => s.startsWith("auth/"))
          : args;
  const started = Date.now();
  const results = await runScenarios(wanted.filter((s) => !(s in NOT_APPLICABLE)));
  for (const r of results) {
    process.stdout.write(
      `${r.passed ? "pass" : "FAIL"} ${r.scenario} (${r.checks} checks, ${r.ms} ms)\n`,
    );
    for (const p of r.problems) process.stdout.write(`     ${p}\n`);
  }
  for (const [s, why] of Object.entries(NOT_APPLICABLE))
    if (wanted.includes(s)) process.stdout.write(`n/a  ${s}: ${why}\n`);
  const passed = results.filter((r) => r.passed).length;
  process.stdout.write(
    `workload: ${wanted.length} client scenarios of @modelcontextprotocol/conformance, one at a time\n`,
  );
  process.stdout.write(`BENCH engine.mcp.conformance ${passed} scenarios\n`);
  process.stdout.write(
    `${passed}/${results.length} passed in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
  );
  process.exitCode = passed === results.length ? 0 : 1;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
