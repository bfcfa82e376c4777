import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compileRules } from "./compile.js";
import type { DecideContext } from "./context.js";
import { decide } from "./decide.js";
import type { PermissionRules } from "./rule-index.js";
import { displayCommand } from "./shell-chars.js";
import { initShellParser, parseCommandSync } from "./shell-parser.js";

// Characters that bash and tree-sitter-bash read differently must never hide a command from
// the gate (issue 16, item 1): `npm test\r#; touch X` is `npm test` plus a comment to the
// parser, while bash runs `touch X`.

const P = "/work/proj";
const ctx: DecideContext = {
  projectRoot: P,
  additionalDirectories: [],
  homeDir: "/home/u",
  autoAllowReadOnlyBash: true,
};
const origin = { source: "settings.toml", root: P };
const allowNpm = {
  allow: compileRules(["Bash(npm test:*)"], origin).rules,
  ask: [],
  deny: [],
};
const denyTouch = {
  allow: compileRules(["Bash(npm test:*)"], origin).rules,
  ask: [],
  deny: compileRules(["Bash(touch:*)"], origin).rules,
};
const none: PermissionRules = { allow: [], ask: [], deny: [] };

function decideText(text: string, rules: PermissionRules) {
  return decide(
    { toolName: "Bash", actions: [{ kind: "command", command: parseCommandSync(text), cwd: P }] },
    "ask",
    rules,
    ctx,
  ).type;
}

let dir: string;
beforeAll(async () => {
  await initShellParser();
  dir = mkdtempSync(join(tmpdir(), "zeng-chars-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Whether real bash, given `line` (with `npm` and `ls` as no-op functions), creates X. */
function bashRunsTouch(line: string): boolean {
  const x = join(dir, "X");
  rmSync(x, { force: true });
  // Fed on stdin, as bash reads a script (it drops NUL bytes there; `bash -c` cannot take one).
  const input = `npm() { :; }; ls() { :; }\n${line}\n`;
  spawnSync("bash", ["-s"], { cwd: dir, input, timeout: 5000 });
  return existsSync(x);
}

const ALL: number[] = [];
for (let cp = 0; cp < 0x3100; cp++) ALL.push(cp);
// Unpaired UTF-16 halves (not code points of their own, but a JSON string can hold them).
ALL.push(0xd800, 0xdbff, 0xdc00, 0xdfff);

describe("every code point below U+3100 before `#; touch X`", () => {
  it("is never allowed (allow rule, read-only auto-allow) nor slips past a deny rule unless bash really runs nothing hidden", () => {
    const suspicious: string[] = [];
    for (const cp of ALL) {
      const ch = String.fromCharCode(cp);
      if (cp > 0xffff) continue;
      const npm = `npm test${ch}#; touch X`;
      const ls = `ls${ch}#; touch X`;
      const allowed = decideText(npm, allowNpm) === "allow" || decideText(ls, none) === "allow";
      const notDenied = decideText(npm, denyTouch) !== "deny";
      if (allowed || notDenied) suspicious.push(ch);
    }
    // The few lines the gate lets through (or does not deny) must be ones where bash too runs
    // no `touch X`: prove it with real bash for each of them.
    // Today: tab, newline, space and `"&'();<>\`|`.
    expect(suspicious.length).toBeLessThan(20);
    const leaks = suspicious.filter(
      (ch) => bashRunsTouch(`npm test${ch}#; touch X`) || bashRunsTouch(`ls${ch}#; touch X`),
    );
    expect(leaks.map((ch) => `U+${ch.charCodeAt(0).toString(16).padStart(4, "0")}`)).toEqual([]);
  }, 60_000);

  it("the scan's bash proof can fail: bash does run the touch hidden by a carriage return", () => {
    expect(bashRunsTouch("npm test\r#; touch X")).toBe(true);
  });
});

describe("characters the parser and bash disagree on", () => {
  it("make an unquoted occurrence an error, while the hidden command is still listed", () => {
    const p = parseCommandSync("npm test\r#; touch X");
    expect(p.error).toMatch(/U\+000D/);
    expect(p.commands.map((c) => c.argv[0])).toEqual(["npm", "touch"]);
  });

  it("are read as plain text inside quotes", () => {
    const cases: [string, string][] = [
      ["echo 'a\rb'; touch X", "a\rb"],
      ['echo "a\u00a0b"; touch X', "a\u00a0b"],
      ["echo $'a\u2028b'; touch X", "$'a\u2028b'"],
    ];
    for (const [text, word] of cases) {
      const p = parseCommandSync(text);
      expect(p.error, JSON.stringify(text)).toBeUndefined();
      expect(p.commands.map((c) => c.argv)).toEqual([
        ["echo", word],
        ["touch", "X"],
      ]);
    }
  });

  it("a backslash before a carriage return does not join the next line", () => {
    const p = parseCommandSync("echo ok \\\r\nrm -rf x");
    expect(p.error).toBeDefined();
    expect(p.commands.some((c) => c.argv[0] === "rm")).toBe(true);
  });

  it("are opened inside `bash -c` strings too", () => {
    expect(decideText("bash -c 'npm test\r#; touch X'", denyTouch)).toBe("deny");
    expect(decideText("bash -c 'npm test\r#; touch X'", allowNpm)).toBe("ask");
  });

  it("show escaped on the approval card and in reasons", () => {
    expect(displayCommand("npm test\r#; touch X")).toBe("npm test<U+000D>#; touch X");
    expect(displayCommand("a\u2028b\u00a0c\vd\ud800e")).toBe(
      "a<U+2028>b<U+00A0>c<U+000B>d<U+D800>e",
    );
    expect(displayCommand("git log 😀\n\tok")).toBe("git log 😀\n\tok");
    const d = decide(
      {
        toolName: "Bash",
        actions: [{ kind: "command", command: parseCommandSync("make 'a\rb' x"), cwd: P }],
      },
      "ask",
      none,
      ctx,
    );
    expect(d.type === "ask" && d.reason).toContain("`make a<U+000D>b x`");
  });
});
