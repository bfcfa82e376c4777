import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { PermissionMode } from "@z-engine/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expandBraces } from "./brace.js";
import { commandPaths } from "./command-paths.js";
import { compileRules } from "./compile.js";
import type { DecideContext } from "./context.js";
import { decide } from "./decide.js";
import { isReadOnlyCommand } from "./read-only.js";
import type { PermissionRules } from "./rule-index.js";
import { initShellParser, parseCommandSync } from "./shell-parser.js";

// Read-only auto-allow must not run code, nor read past Read rules (issue 16, item 8).

const P = "/work/proj";
const ctx: DecideContext = {
  projectRoot: P,
  additionalDirectories: [],
  homeDir: "/home/u",
  autoAllowReadOnlyBash: true,
};
const origin = { source: "settings.toml", root: P };
const rules = (allow: string[], deny: string[] = [], ask: string[] = []): PermissionRules => ({
  allow: compileRules(allow, origin).rules,
  ask: compileRules(ask, origin).rules,
  deny: compileRules(deny, origin).rules,
});
const NONE = rules([]);

function run(
  text: string,
  r: PermissionRules = NONE,
  mode: PermissionMode = "ask",
  realPaths?: ReadonlyMap<string, string>,
) {
  const command = parseCommandSync(text);
  return decide(
    {
      toolName: "Bash",
      actions: [{ kind: "command", command, cwd: P, ...(realPaths ? { realPaths } : {}) }],
    },
    mode,
    r,
    ctx,
  );
}

let dir: string;
beforeAll(async () => {
  await initShellParser();
  dir = mkdtempSync(join(tmpdir(), "zeng-eval-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `line` in real bash in a temp folder; true when it created the file X. */
function runsCode(line: string): boolean {
  rmSync(join(dir, "X"), { force: true });
  spawnSync("bash", ["-c", line], { cwd: dir, stdio: "ignore", timeout: 5000 });
  return existsSync(join(dir, "X"));
}

describe("commands that look read-only but make bash evaluate code", () => {
  const evaluating = [
    "test -v 'a[$(touch X)]'",
    "[ -v 'a[$(touch X)]' ]",
    "[[ -v 'a[$(touch X)]' ]]",
    "[[ 'a[$(touch X)]' -eq 1 ]]",
    "[[ 1 -lt 'a[$(touch X)]' ]]",
    "printf -v 'a[$(touch X)]' x",
  ];
  it.each(evaluating)("real bash runs the code in `%s`", (text) => {
    expect(runsCode(text)).toBe(true);
  });
  it.each(evaluating)("`%s` is not read-only and asks", (text) => {
    expect(isReadOnlyCommand(parseCommandSync(text))).toBe(false);
    expect(run(text).type).toBe("ask");
  });

  // A variable set earlier in the agent's persistent shell is evaluated as arithmetic.
  const byValue = [
    ["x='a[$(touch X)]'", "[[ x -eq 1 ]]"],
    ["x='a[$(touch X)]'", "echo $((x))"],
    ["x='a[$(touch X)]'", "echo $" + "{b[x]}"],
    ["x='a[$(touch X)]'", "[[ $x -lt 2 ]]"],
  ];
  it.each(byValue)("after `%s`, real bash runs code in `%s`, which asks", (set, text) => {
    expect(runsCode(`${set}; ${text}`)).toBe(true);
    expect(run(text).type).toBe("ask");
  });

  it("printf -v assigns a variable, so it is never read-only", () => {
    expect(run("printf -v PATH '%s' ./evil").type).toBe("ask");
  });

  it("declare, read -a, let and (( )) were never read-only", () => {
    for (const text of ["declare -p 'a[$(touch X)]'", "read -a x", "let x=1", "(( x ))"]) {
      expect(isReadOnlyCommand(parseCommandSync(text)), text).toBe(false);
    }
  });

  it("plain tests and integer comparisons stay read-only", () => {
    for (const text of [
      "test -v HOME",
      "test -f package.json",
      "[ -d src ]",
      "[[ 1 -lt 2 ]]",
      "[[ -n x && -f y ]]",
      "test x -eq 1",
      "printf '%s\\n' a b",
      "echo $HOME",
    ]) {
      expect(run(text).type, text).toBe("allow");
    }
  });
});

describe("paths read-only commands read, after expansion", () => {
  it("brace expansion cannot carry a path out of the project", () => {
    expect(run("cat {~/.ssh/id_rsa,x}").type).toBe("ask");
    expect(run("cat {/etc/passwd,x}").type).toBe("ask");
    expect(run("cat src/{a,b}.ts x{1..3}").type).toBe("allow");
    expect(run("cat {~/.ssh/id_rsa,x}", rules([], ["Read(~/.ssh/**)"])).type).toBe("deny");
  });

  it("Read deny rules meet the files read-only commands read, over Bash allow rules", () => {
    const r = rules(["Bash(cat:*)", "Bash(grep:*)"], ["Read(./.env)", "Read(~/.ssh/**)"]);
    expect(run("cat .env", r).type).toBe("deny");
    expect(run("cat ./src/../.env", r).type).toBe("deny");
    expect(run("grep KEY .env", r).type).toBe("deny");
    expect(run("cat ~/.ssh/id_rsa", r).type).toBe("deny");
    expect(run("cat src/.env", r).type).toBe("deny");
    expect(run("cat .env", r, "bypass").type).toBe("deny");
    expect(run("cat README.md", r).type).toBe("allow");
  });

  it("Read ask rules ask", () => {
    const r = rules([], [], ["Read(./secrets/**)"]);
    expect(run("cat secrets/key", r).type).toBe("ask");
    expect(run("cat src/a.ts", r).type).toBe("allow");
  });

  it("wildcards and recursive searches that may reach a guarded file are not auto-allowed", () => {
    const r = rules([], ["Read(./.env)", "Read(./secrets/**)"]);
    expect(run("cat .en?", r).type).toBe("ask");
    expect(run("grep -r KEY .", r).type).toBe("ask");
    expect(run("rg KEY", r).type).toBe("ask");
    expect(run("git grep KEY", r).type).toBe("ask");
    expect(run("grep KEY src/a.ts", r).type).toBe("allow");
    // Without Read rules the same commands are auto-allowed.
    expect(run("cat .en?").type).toBe("allow");
    expect(run("grep -r KEY .").type).toBe("allow");
    // A search outside every guarded folder is fine when no rule matches at any depth.
    const narrow = rules([], ["Read(./secrets/**)"]);
    expect(run("rg KEY src", narrow).type).toBe("allow");
  });
});

describe("real paths found by the tool", () => {
  it("a read through a symlink out of the project is outside, and meets deny rules", () => {
    const real = new Map([[`${P}/link`, "/home/u/.ssh/id_rsa"]]);
    expect(run("cat link", NONE, "ask", real).type).toBe("ask");
    expect(run("cat link", rules([], ["Read(~/.ssh/**)"]), "ask", real).type).toBe("deny");
    expect(run("cat link", NONE, "ask").type).toBe("allow");
  });

  it("a redirection through a symlink writes where the link leads", () => {
    const bashrc = new Map([[`${P}/report.txt`, "/home/u/.bashrc"]]);
    expect(run("npm test > report.txt", rules(["Bash(npm test:*)"]), "acceptEdits").type).toBe(
      "allow",
    );
    const r = rules(["Bash(npm test:*)"]);
    expect(run("npm test > report.txt", r, "acceptEdits", bashrc).type).toBe("ask");
    const deny = rules(["Bash(npm test:*)"], ["Edit(~/.bashrc)"]);
    expect(run("npm test > report.txt", deny, "acceptEdits", bashrc).type).toBe("deny");
    const hook = new Map([[`${P}/out.txt`, `${P}/.git/hooks/pre-commit`]]);
    expect(run("npm test > out.txt", r, "acceptEdits", hook).type).toBe("ask");
  });

  it("commandPaths lists what the gate will check, lexically", () => {
    const parsed = parseCommandSync("cd sub && cat a {b,~/c} > out; rm -f z; make 2>/dev/null");
    expect(commandPaths(parsed, P, "/home/u").sort()).toEqual(
      [
        P,
        `${P}/sub`,
        `${P}/a`,
        `${P}/sub/a`,
        `${P}/sub/sub`,
        `${P}/{b,~/c}`,
        `${P}/sub/{b,~/c}`,
        `${P}/b`,
        `${P}/sub/b`,
        "/home/u/c",
        `${P}/out`,
        `${P}/sub/out`,
        `${P}/z`,
        `${P}/sub/z`,
      ].sort(),
    );
  });
});

describe("expandBraces", () => {
  it("expands as bash does, keeping the word as written", () => {
    expect(expandBraces("x")).toEqual(["x"]);
    expect(expandBraces("{a,b}c")).toEqual(["{a,b}c", "ac", "bc"]);
    expect(expandBraces("{a,{b,c}}")).toEqual(["{a,{b,c}}", "a", "b", "c"]);
    expect(expandBraces("f{1..3}")).toEqual(["f{1..3}", "f1", "f2", "f3"]);
    expect(expandBraces("{c..a}")).toEqual(["{c..a}", "c", "b", "a"]);
    expect(expandBraces("{a}")).toEqual(["{a}"]);
    expect(expandBraces("$" + "{x,y}")).toEqual(["$" + "{x,y}"]);
    expect(expandBraces("{1..100000}")).toBeUndefined();
  });
});
