// Rebuilds the committed public-data slice from the fetched repositories (see SOURCE.md):
//   tsx scripts/public-data/build.ts <nl2bash git dir> <gitleaks git dir>
// Writes nl2bash/all.cm (the corpus' commands as they are), gitleaks/cases.jsonl (the rule
// files' test cases plus real git output of the same repository) and each repository's licence.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { goRuleCases } from "./go-literals.js";

const [nl2bash, gitleaks] = process.argv.slice(2);
if (!nl2bash || !gitleaks) {
  console.error("usage: build.ts <nl2bash git dir> <gitleaks git dir>");
  process.exit(2);
}
const git = (dir: string, ...args: string[]) =>
  execFileSync("git", ["--git-dir", dir, ...args], { maxBuffer: 1 << 28 }).toString();
const out = (path: string) => new URL(path, import.meta.url);

mkdirSync(out("nl2bash/"), { recursive: true });
writeFileSync(out("nl2bash/all.cm"), git(nl2bash, "show", "HEAD:data/bash/all.cm"));
writeFileSync(out("nl2bash/LICENSE"), git(nl2bash, "show", "HEAD:data/bash/LICENSE").trimStart());

interface Case {
  readonly source: string;
  readonly text: string;
  readonly label: 0 | 1;
}
const cases: Case[] = [];
const rulesDir = "cmd/generate/config/rules/";
for (const path of git(gitleaks, "ls-tree", "--name-only", "HEAD", rulesDir).split("\n")) {
  if (!path.endsWith(".go") || path.endsWith("_test.go")) continue;
  for (const c of goRuleCases(git(gitleaks, "show", `HEAD:${path}`)))
    cases.push({ source: path, text: c.text, label: c.list === "tps" ? 1 : 0 });
}
// Real tool output of the same repository: `git ls-tree -r` lines (blob hashes and paths)
// and `git log` entries (commit hashes and subjects). None holds a credential.
for (const line of git(gitleaks, "ls-tree", "-r", "HEAD").split("\n").filter(Boolean).slice(0, 400))
  cases.push({ source: "git ls-tree -r HEAD", text: line, label: 0 });
for (const entry of git(gitleaks, "log", "-n", "300", "--format=commit %H%n    %s%x00").split("\0"))
  if (entry.trim()) cases.push({ source: "git log", text: entry.trim(), label: 0 });

const seen = new Set<string>();
const unique = cases.filter((c) => !seen.has(c.text) && seen.add(c.text));
mkdirSync(out("gitleaks/"), { recursive: true });
writeFileSync(out("gitleaks/cases.jsonl"), `${unique.map((c) => JSON.stringify(c)).join("\n")}\n`);
writeFileSync(out("gitleaks/LICENSE"), git(gitleaks, "show", "HEAD:LICENSE"));
console.log(`nl2bash/all.cm; gitleaks/cases.jsonl: ${unique.length} cases`);
