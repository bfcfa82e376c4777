// Benchmarks for @z-engine/policy (design.md §7): decide() over parsed actions with 500 rules,
// and parseCommand() on a typical 3-part command line. Absolute figures (no tool does the same).
import {
  type Action,
  compileRules,
  type DecideContext,
  decide,
  initShellParser,
  parseCommandSync,
} from "../src/index.js";

const P = "/work/proj";
const ctx: DecideContext = {
  projectRoot: P,
  additionalDirectories: ["/work/extra"],
  homeDir: "/home/u",
  autoAllowReadOnlyBash: true,
};

function ruleTexts(n: number, salt: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    switch (i % 5) {
      case 0:
        out.push(`Bash(tool${salt}${i} sub${i}:*)`);
        break;
      case 1:
        out.push(`Read(//opt/${salt}${i}/**)`);
        break;
      case 2:
        out.push(`Edit(/gen/${salt}${i}/**/*.ts)`);
        break;
      case 3:
        out.push(`WebFetch(domain:host${salt}${i}.example.com)`);
        break;
      default:
        out.push(`mcp__srv${salt}${i}__tool`);
    }
  }
  return out;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
}

await initShellParser();
const origin = { source: "bench", root: P };
const rules = {
  allow: [
    ...compileRules(ruleTexts(300, "a"), origin).rules,
    ...compileRules(["Bash(npm test:*)", "Bash(git status)"], origin).rules,
  ],
  ask: compileRules(ruleTexts(100, "q"), origin).rules,
  deny: [
    ...compileRules(ruleTexts(98, "d"), origin).rules,
    ...compileRules(["Bash(rm:*)", "Read(~/.ssh/**)"], origin).rules,
  ],
};
const ruleCount = rules.allow.length + rules.ask.length + rules.deny.length;
const calls: { toolName: string; actions: Action[] }[] = [
  {
    toolName: "Bash",
    actions: [
      { kind: "command", command: parseCommandSync("npm test && git status | head -5"), cwd: P },
    ],
  },
  { toolName: "Read", actions: [{ kind: "read", paths: [`${P}/src/index.ts`] }] },
  { toolName: "Edit", actions: [{ kind: "write", paths: [`${P}/gen/a7/x/y.ts`] }] },
  { toolName: "Read", actions: [{ kind: "read", paths: ["/home/u/.ssh/id_rsa"] }] },
  {
    toolName: "WebFetch",
    actions: [{ kind: "network", url: "https://docs.rs/x", domain: "docs.rs" }],
  },
  { toolName: "mcp__gh__x", actions: [{ kind: "mcp", server: "gh", tool: "x" }] },
  {
    toolName: "Bash",
    actions: [{ kind: "command", command: parseCommandSync("cargo build > out.log 2>&1"), cwd: P }],
  },
  {
    toolName: "Verify",
    actions: [
      { kind: "command", command: parseCommandSync("npm test"), cwd: P },
      { kind: "command", command: parseCommandSync("cargo test"), cwd: P },
    ],
  },
];

const N = 200_000;
let sink = 0;
const rates: number[] = [];
for (let round = 0; round < 7; round++) {
  const t0 = performance.now();
  for (let i = 0; i < N; i++) {
    const call = calls[i % calls.length];
    if (call) sink += decide(call, "ask", rules, ctx).type.length;
  }
  const ms = performance.now() - t0;
  if (round > 1) rates.push((N / ms) * 1000);
}
console.log(
  `workload: decide() over ${calls.length} mixed pre-parsed calls (commands, reads, writes, network, mcp, a 2-check Verify) with ${ruleCount} rules, ${N} decisions x 5 rounds after 2 warm-up rounds`,
);
console.log(`BENCH policy.decide ${Math.round(median(rates))} decisions/s`);

const line = "npm test -- --runInBand && git status --short | grep -v '^??' > /tmp/status.txt";
const times: number[] = [];
for (let i = 0; i < 2000; i++) {
  const t0 = performance.now();
  sink += parseCommandSync(line).commands.length;
  if (i >= 200) times.push(performance.now() - t0);
}
console.log(
  `workload: parseCommandSync(${JSON.stringify(line)}) (3 simple commands, a pipe and a redirection), 1800 runs after 200 warm-up`,
);
console.log(`BENCH policy.parse ${median(times).toFixed(4)} ms`);
if (sink < 0) console.log(sink);
