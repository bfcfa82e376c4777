import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseGitConfig } from "./git-config-file.js";
import { createRandom } from "./test-support/seeded-random.js";

const exec = promisify(execFile);

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "zeng-config-file-"));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

/** Git's own reading of a config text: `key → values`, or null when git rejects the file. */
async function gitReads(
  text: string,
  name: string,
): Promise<Map<string, (string | true)[]> | null> {
  const file = join(scratch, name);
  await writeFile(file, text);
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: scratch,
    GIT_CONFIG_NOSYSTEM: "1",
  };
  try {
    const out = await exec("git", ["config", "-f", file, "--list", "-z"], { env });
    const values = new Map<string, (string | true)[]>();
    for (const item of out.stdout.split("\0").slice(0, -1)) {
      const newline = item.indexOf("\n");
      const key = newline < 0 ? item : item.slice(0, newline);
      const value = newline < 0 ? true : item.slice(newline + 1);
      values.set(key, [...(values.get(key) ?? []), value]);
    }
    return values;
  } catch {
    return null;
  }
}

// Each list starts with forms git reads, then odd or broken ones (picked less often).
const HEADERS = [
  "[core]",
  "[Core]",
  '[remote "origin"]',
  "[core] # note",
  "[ core]",
  "[core ]",
  '[remote "Or\\"ig"]',
  '[remote  "x y"]',
  '[remote "x" ]',
  "[a.b]",
  "[include]",
  '[includeIf "gitdir:/x/"]',
  "[core]bare = false",
  "[core",
  "[]",
  "[1x]",
  "[core-x]",
];
const KEYS = ["excludesFile", "excludesfile", "bare", "worktree", "k-1", "k_1", "1k", "Key"];
const VALUES = [
  " = /a/b",
  "=/a b ",
  " =",
  "",
  ' = "quoted # x" # comment',
  " = v ; c",
  ' = "a"b"c"',
  " = a  b",
  ' = ""  x',
  " = a\\tb",
  " = a\\qb",
  ' = "open',
  " = a \\",
  " = \u00a0x",
  ' = \\"',
  " = a\\\\b",
  " = x\u000by",
  " value",
];
const OTHERS = ["# comment", "; comment", "", "   ", "\t", "\u000bk = v", "\u00a0k = v"];

function configText(random: () => number): string {
  // Nine times in ten one of the first `plain` entries (forms git reads), else any.
  const pick = <T>(list: readonly T[], plain = 4): T =>
    list[Math.floor(random() * (random() < 0.9 ? plain : list.length))] as T;
  const lines: string[] = [];
  const count = 1 + Math.floor(random() * 7);
  for (let i = 0; i < count; i++) {
    const kind = random();
    const indent = random() < 0.2 ? pick([" ", "\t", "  \t"]) : "";
    if (i === 0 || kind < 0.2) lines.push(indent + pick(HEADERS));
    else if (kind < 0.85) lines.push(indent + pick(KEYS, 6) + pick(VALUES, 9));
    else lines.push(pick(OTHERS));
  }
  const newline = random() < 0.2 ? "\r\n" : "\n";
  return lines.join(newline) + (random() < 0.8 ? newline : "");
}

describe("parseGitConfig", () => {
  it("reads what git reads, or gives up, over generated config files", async () => {
    let accepted = 0;
    let refused = 0;
    const cases = 400;
    for (let seed = 1; seed <= cases; seed++) {
      const text = configText(createRandom(seed));
      const ours = parseGitConfig(text);
      const git = await gitReads(text, `c${seed}`);
      if (ours === null) {
        if (git !== null) refused++;
        continue;
      }
      accepted++;
      expect(git, `seed ${seed}: git rejects what we read\n${text}`).not.toBeNull();
      expect(Object.fromEntries(ours), `seed ${seed}\n${text}`).toEqual(
        Object.fromEntries(git ?? []),
      );
    }
    // A reader that always gave up would pass the loop: most cases are plain enough to read.
    expect(accepted, `${refused} refused that git reads`).toBeGreaterThan(cases * 0.5);
  }, 60_000);

  it("gives up on includes, continued lines and a byte-order mark", () => {
    expect(parseGitConfig("[include]\n\tpath = x\n")).toBeNull();
    expect(parseGitConfig('[includeIf "gitdir:/x/"]\n\tpath = x\n')).toBeNull();
    expect(parseGitConfig("[core]\n\texcludesFile = /a\\\n/b\n")).toBeNull();
    expect(parseGitConfig("\uFEFF[core]\n\tbare = false\n")).toBeNull();
  });

  it("keeps every value of a key in order, a subsection's case, and a bare key as true", () => {
    const values = parseGitConfig(
      '[core]\n\texcludesFile = /one\n[Remote "Origin"]\n\tURL = x\n[core]\n\texcludesfile = "/two # kept" # dropped\n\tsymlinks\n',
    );
    expect(values?.get("core.excludesfile")).toEqual(["/one", "/two # kept"]);
    expect(values?.get("remote.Origin.url")).toEqual(["x"]);
    expect(values?.get("core.symlinks")).toEqual([true]);
  });
});
