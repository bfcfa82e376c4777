// The "fix the failing test" harness (issue 18): `zeng -p` against the fake provider over
// HTTP, five rounds (npm test, Read, Edit, npm test, answer) in a five-file npm project.
// Prints, each with the workload and a baseline measured in the same run:
//   cli.firstround     round 1's gap (request 1 to request 2) minus the Bash call's own run
//                      time (its toolFinished durationMs in the session log: issue 18's
//                      measure), beside round 1's gap minus `npm test` run alone (on the
//                      same failing test, before zeng runs)
//   cli.harnessMemory  peak RSS of the run (/usr/bin/time)
//   cli.prefixStability bytes of each request (tools, system, messages: the order the
//                      provider caches, without the moving cache breakpoints) that the next
//                      one repeats as its prefix, over all bytes of those requests (1.0:
//                      every request extends the previous one); the first differing byte is
//                      printed when below 1. Beside it: whether the system prompt and tools
//                      were byte-identical in every request, and the request whose messages
//                      first carried the repo map (it joins as a reminder, issue 18 item 6).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { reply, startFakeProvider } from "@z-engine/testkit";
import { benchHome, MAIN, median, run } from "./world.js";

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const TIME = "/usr/bin/time";

const files = {
  "package.json": JSON.stringify(
    { name: "login-demo", version: "1.0.0", type: "module", scripts: { test: "node --test" } },
    null,
    2,
  ),
  "README.md": "# login demo\n",
  ".gitignore": "node_modules/\n",
  "src/auth/token.js":
    "export function isExpired(token, now) {\n  return now > token.expiresAt;\n}\n",
  "test/token.test.js":
    'import { test } from "node:test";\nimport assert from "node:assert/strict";\nimport { isExpired } from "../src/auth/token.js";\n\ntest("login token expires at its expiry time", () => {\n  assert.equal(isExpired({ expiresAt: 100 }, 100), true);\n});\n',
};

interface Sample {
  firstRequest: number;
  /** The first Bash call's own run time (toolFinished durationMs). */
  toolMs: number;
  gaps: number[];
  npmTest: number;
  mb: number;
  stable: number;
  total: number;
  firstDiff: string;
  /** System prompt and tools byte-identical in every main request. */
  sameHead: boolean;
  /** The 1-based request whose messages first carry the repo map (0: none). */
  mapAt: number;
}

interface RequestBody {
  tools?: unknown[];
  system?: unknown[];
  messages?: unknown[];
}

/**
 * A request in the order the provider caches its prefix (tools, system, messages), one
 * JSON value per block, with the cache breakpoints left out: a breakpoint moves to the
 * newest user message each round by design, which is not a change of the prefix's bytes.
 */
function cachedOrder(body: RequestBody): string {
  const strip = (value: unknown): unknown =>
    JSON.parse(JSON.stringify(value), (key, v) => (key === "cache_control" ? undefined : v));
  const parts = [...(body.tools ?? []), ...(body.system ?? []), ...(body.messages ?? [])];
  return parts.map((p) => JSON.stringify(strip(p))).join("\n");
}

function commonPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** The log files under `dir`, any depth. */
function logFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return logFiles(path);
    return entry.name === "log.jsonl" ? [path] : [];
  });
}

/** The first Bash call's own run time in the run's session log (toolFinished durationMs). */
function firstBashMs(dataDir: string): number {
  for (const file of logFiles(dataDir)) {
    for (const line of readFileSync(file, "utf8").split("\n")) {
      if (!line.includes('"toolFinished"') || !line.includes('"Bash"')) continue;
      const record = JSON.parse(line) as { durationMs?: number };
      if (typeof record.durationMs === "number") return record.durationMs;
    }
  }
  throw new Error(`no Bash toolFinished record under ${dataDir}`);
}

async function once(): Promise<Sample> {
  const world = await benchHome(process.env.BENCH_SETTINGS ?? "", files);
  const token = world.repo.path("src/auth/token.js");
  const provider = await startFakeProvider({
    script: [
      reply.toolCall("Bash", { command: "npm test" }),
      reply.toolCall("Read", { file_path: token }),
      reply.toolCall("Edit", {
        file_path: token,
        old_string: "now > token.expiresAt",
        new_string: "now >= token.expiresAt",
      }),
      reply.toolCall("Bash", { command: "npm test" }),
      reply.text("Fixed: a token expires at its expiry time."),
    ],
  });
  try {
    // `npm test` alone, before zeng runs: on the same failing test its round 1 runs (after
    // the run the test passes, which takes less time).
    const npmStart = performance.now();
    await run(
      ["-c", "npm test >/dev/null 2>&1"],
      { PATH: process.env.PATH ?? "" },
      world.repo.root,
      "sh",
    );
    const npmTest = performance.now() - npmStart;
    const arrivals: number[] = [];
    for (let i = 0; i < 5; i++)
      void provider.requestArrived(i).then(() => arrivals.push(performance.now()));
    const started = performance.now();
    const result = await run(
      [
        TIME,
        "-f",
        "MAXRSS %M",
        process.execPath,
        ...(process.env.BENCH_NODE_FLAGS ?? "").split(" ").filter(Boolean),
        MAIN,
        "-p",
        "The login test fails. Fix it.",
        "--output-format",
        "json",
        "--permission-mode",
        "bypass",
      ].slice(1),
      world.env(provider),
      world.repo.root,
      TIME,
    );
    const line = JSON.parse(result.stdout.trim().split("\n").at(-1) ?? "{}") as {
      outcome?: string;
    };
    if (line.outcome !== "completed") throw new Error(`outcome ${line.outcome}: ${result.stderr}`);
    if (process.env.BENCH_DEBUG) console.log(result.stderr);
    // Only the main agent's requests (the title request has no tools).
    const main = provider.requests
      .map((r) => r.body as RequestBody)
      .filter((b) => (b.tools ?? []).length > 0);
    const bodies = main.map(cachedOrder);
    const heads = main.map((b) => cachedOrder({ tools: b.tools ?? [], system: b.system ?? [] }));
    const sameHead = heads.every((h) => h === heads[0]);
    const mapAt =
      main.findIndex((b) => JSON.stringify(b.messages ?? []).includes("Repository map:")) + 1;
    let stable = 0;
    let total = 0;
    let firstDiff = "";
    for (let i = 0; i + 1 < bodies.length; i++) {
      const [a, b] = [bodies[i] as string, bodies[i + 1] as string];
      const same = commonPrefix(a, b);
      stable += same;
      total += a.length;
      if (same < a.length && process.env.BENCH_DEBUG)
        console.log(
          `request ${i + 1}→${i + 2}: ${a.length - same} of ${a.length} bytes differ from byte ${same}: …${a.slice(Math.max(0, same - 80), same + 80)}… became …${b.slice(Math.max(0, same - 80), same + 80)}…`,
        );
      if (same < a.length && firstDiff === "")
        firstDiff = `request ${i + 1}→${i + 2} at byte ${same}: …${a.slice(Math.max(0, same - 60), same + 40)}… became …${b.slice(Math.max(0, same - 60), same + 40)}…`;
    }
    const gaps = arrivals.slice(1).map((t, i) => t - (arrivals[i] as number));
    const mb = Number(/MAXRSS (\d+)/.exec(result.stderr)?.[1]) / 1024;
    return {
      firstRequest: (arrivals[0] as number) - started,
      toolMs: firstBashMs(join(world.home, "data")),
      gaps,
      npmTest,
      mb,
      stable,
      total,
      firstDiff,
      sameHead,
      mapAt,
    };
  } finally {
    await provider.close();
    await world.dispose();
  }
}

if (!existsSync(TIME)) throw new Error(`${TIME} is needed to measure peak memory`);
await once(); // warm-up
const samples: Sample[] = [];
for (let i = 0; i < RUNS; i++) samples.push(await once());
const m = (f: (s: Sample) => number) => median(samples.map(f));
const round1 = m((s) => (s.gaps[0] ?? 0) - s.toolMs);
const round1Npm = m((s) => (s.gaps[0] ?? 0) - s.npmTest);
console.log(
  `workload: zeng -p in a 5-file npm project with a failing test, bypass mode, zero-latency fake provider (anthropic wire): npm test, Read, Edit, npm test, answer; ${RUNS} runs after a warm-up, medians; round gaps (ms) ${[0, 1, 2, 3].map((i) => m((s) => s.gaps[i] ?? 0).toFixed(0)).join(", ")}; first request at ${m((s) => s.firstRequest).toFixed(0)} ms`,
);
console.log(
  `BENCH cli.firstround ${round1.toFixed(0)} ms baseline=${m((s) => s.toolMs).toFixed(0)} (the Bash call's own run time) ratio=${(m((s) => s.gaps[0] ?? 0) / m((s) => s.toolMs)).toFixed(2)}`,
);
console.log(
  `round 1's gap minus npm test run alone (${m((s) => s.npmTest).toFixed(0)} ms): ${round1Npm.toFixed(0)} ms`,
);
console.log(`BENCH cli.harnessMemory ${m((s) => s.mb).toFixed(0)} MB`);
const stability =
  samples.reduce((a, s) => a + s.stable, 0) / samples.reduce((a, s) => a + s.total, 0);
console.log(`BENCH cli.prefixStability ${stability.toFixed(5)} ratio`);
console.log(
  `system prompt and tools byte-identical across each run's requests: ${samples.every((s) => s.sameHead) ? "yes" : "no"}; repo map joined the messages at request ${samples.map((s) => s.mapAt || "never").join(", ")}`,
);
const diff = samples.find((s) => s.firstDiff !== "")?.firstDiff;
if (diff) console.log(`first change in a prefix: ${diff}`);
