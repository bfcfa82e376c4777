import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "smol-toml";
import { loadSettings, resolvePaths, TrustStore } from "../src/index.js";

const base = mkdtempSync(join(tmpdir(), "zeng-config-bench-"));
const project = join(base, "project");
const env = {
  HOME: join(base, "home"),
  ZENGINE_CONFIG_HOME: join(base, "config"),
  ZENGINE_HOME: join(base, "data"),
  ZENGINE_MODEL: "bench-model",
};
const paths = resolvePaths(env);

function write(file: string, content: string) {
  mkdirSync(join(file, ".."), { recursive: true });
  writeFileSync(file, content);
}

const rules = (n: number, p: string) =>
  `[${Array.from({ length: n }, (_, i) => `"Bash(${p}${i}:*)"`).join(", ")}]`;
const hooks = (n: number) =>
  Array.from(
    { length: n },
    (_, i) => `[[hooks.PreToolUse]]\nmatcher = "Bash"\ncommand = "hook-${i}"\ntimeout_secs = 5\n`,
  ).join("\n");
const servers = (n: number, p: string) =>
  Array.from(
    { length: n },
    (_, i) => `[mcp.servers.${p}${i}]\ncommand = "srv"\nargs = ["--x", "${i}"]\n`,
  ).join("\n");
const checks = (n: number) =>
  Array.from(
    { length: n },
    (_, i) => `[[verification.checks]]\nid = "c${i}"\nkind = "test"\ncommand = "make t${i}"\n`,
  ).join("\n");
const file = (p: string) =>
  `# ${p}\n[model]\nmain = "m"\nfallbacks = ["a", "b"]\n[permissions]\nallow = ${rules(50, `${p}a`)}\ndeny = ${rules(50, `${p}d`)}\nask = ${rules(20, `${p}q`)}\n[shell.sandbox]\nenabled = true\n[pricing."x"]\ninput = 1\noutput = 2\n${hooks(10)}\n${servers(10, p)}\n${checks(10)}`;

const files = [
  paths.userSettingsFile,
  join(project, ".z-engine", "settings.toml"),
  join(project, ".z-engine", "settings.local.toml"),
];
write(files[0] as string, file("user"));
write(files[1] as string, file("project"));
write(files[2] as string, file("local"));
write(
  join(project, ".mcp.json"),
  JSON.stringify({
    mcpServers: { a: { command: "x" }, b: { type: "http", url: "https://x.example/mcp" } },
  }),
);
const store = new TrustStore(paths.trustFile);

function median(run: () => void, reps: number): number {
  for (let i = 0; i < 50; i++) run();
  const times: number[] = [];
  for (let i = 0; i < reps; i++) {
    const start = performance.now();
    run();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] as number;
}

const load = () => {
  const result = loadSettings({ env, paths, projectRoot: project, trusted: store });
  if (result.problems.length > 0) throw new Error(JSON.stringify(result.problems));
};
const baseline = () => {
  for (const f of files) parse(readFileSync(f, "utf8"));
};

await store.trust(project);
const ms = median(load, 500);
const baseMs = median(baseline, 500);
console.log(
  "workload: user + project + local settings.toml (120 rules, 10 hooks, 10 MCP servers, 10 checks each) + .mcp.json + env, trusted via trust.json; median of 500 after 50 warm-ups; baseline: readFileSync + smol-toml parse of the three files",
);
console.log(
  `BENCH config.load ${ms.toFixed(3)} ms baseline=${baseMs.toFixed(3)} ratio=${(ms / baseMs).toFixed(2)}`,
);
rmSync(base, { recursive: true, force: true });
