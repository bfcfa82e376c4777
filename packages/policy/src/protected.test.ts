import type { PermissionMode } from "@z-engine/protocol";
import { beforeAll, describe, expect, it } from "vitest";
import type { Action } from "./action.js";
import { compileRules } from "./compile.js";
import type { DecideContext } from "./context.js";
import { decide } from "./decide.js";
import type { PermissionRules } from "./rule-index.js";
import { initShellParser, parseCommandSync } from "./shell-parser.js";

// Writes to protected paths ask in every mode but bypass, whatever the tool and whatever allow
// rule matches; deny rules still deny (issue 16, item 3).

const P = "/work/proj";
const X = "/work/extra";
const DATA = "/home/u/.local/share/z-engine";
const ctx: DecideContext = {
  projectRoot: P,
  additionalDirectories: [X],
  homeDir: "/home/u",
  autoAllowReadOnlyBash: true,
  engineDirs: [DATA, "/home/u/.config/z-engine"],
};
const MODES: PermissionMode[] = ["ask", "acceptEdits", "plan", "bypass"];
const origin = { source: "settings.toml", root: P };
const rules = (allow: string[], deny: string[] = []): PermissionRules => ({
  allow: compileRules(allow, origin).rules,
  ask: [],
  deny: compileRules(deny, origin).rules,
});
const letter = { allow: "A", ask: "Q", deny: "D" } as const;

function outcomes(tool: string, actions: () => Action[], r: PermissionRules, c = ctx): string {
  return MODES.map(
    (m) => letter[decide({ toolName: tool, actions: actions() }, m, r, c).type],
  ).join("");
}

beforeAll(async () => {
  await initShellParser();
});

const PROTECTED = [
  `${P}/.git/hooks/pre-commit`,
  `${P}/.git/config`,
  `${P}/.git/info/attributes`,
  `${P}/.git`,
  `${P}/.gitmodules`,
  `${P}/.z-engine/settings.toml`,
  `${P}/.z-engine/settings.local.toml`,
  `${P}/.claude/settings.json`,
  `${P}/.claude/settings.local.json`,
  `${P}/.mcp.json`,
  // A worktree agent's checkout, its .git file and pending work (issue 38, item 4).
  `${P}/.z-engine/worktrees/agent_1/.git`,
  `${P}/.z-engine/worktrees/agent_1/src/a.ts`,
  `${P}/.GIT/config`,
  `${X}/.mcp.json`,
  `${X}/.git/hooks/post-checkout`,
  `${P}/vendor/lib/.git/hooks/pre-commit`,
  `${DATA}/sessions/s1/log.jsonl`,
  "/home/u/.config/z-engine/settings.toml",
];
const ORDINARY = [
  `${P}/src/a.ts`,
  `${P}/.gitignore`,
  `${P}/.github/workflows/ci.yml`,
  `${P}/.z-engine/agents/review.md`,
  `${P}/.claude/commands/x.md`,
  `${X}/notes.md`,
];
const ALLOWS = [[], ["Edit"], ["Write"], ["Edit(/**)"], ["Edit(//**)"], ["Edit(//home/u/**)"]];

describe("writes to protected paths (modes: ask, acceptEdits, plan, bypass)", () => {
  for (const tool of ["Write", "Edit", "MultiEdit", "NotebookEdit"]) {
    for (const path of PROTECTED) {
      it(`${tool} ${path} asks under every allow rule`, () => {
        for (const allow of ALLOWS) {
          const got = outcomes(tool, () => [{ kind: "write", paths: [path] }], rules(allow));
          expect(got, allow.join(",")).toBe("QQDA");
        }
      });
    }
  }

  it("deny rules still deny", () => {
    const r = rules(["Edit"], ["Edit(/.git/**)", "Write(/.mcp.json)"]);
    expect(outcomes("Edit", () => [{ kind: "write", paths: [`${P}/.git/config`] }], r)).toBe(
      "DDDD",
    );
    expect(outcomes("Write", () => [{ kind: "write", paths: [`${P}/.mcp.json`] }], r)).toBe("DDDD");
  });

  it("a protected path among several makes the call ask", () => {
    const paths = [`${P}/src/a.ts`, `${P}/.git/hooks/pre-push`];
    expect(outcomes("MultiEdit", () => [{ kind: "write", paths }], rules([]))).toBe("QQDA");
  });

  it("ordinary paths keep their mode defaults", () => {
    for (const path of ORDINARY) {
      expect(
        outcomes("Edit", () => [{ kind: "write", paths: [path] }], rules([])),
        path,
      ).toBe("QADA");
    }
  });

  it("reading protected paths is not guarded", () => {
    const read = () => [{ kind: "read", paths: [`${P}/.git/config`] }] as Action[];
    expect(outcomes("Read", read, rules([]))).toBe("AAAA");
  });

  it("without engineDirs, the engine's folders are only outside the project", () => {
    const { engineDirs: _, ...plain } = ctx;
    const write = () => [{ kind: "write", paths: [`${DATA}/x`] }] as Action[];
    expect(outcomes("Edit", write, rules(["Edit(//home/u/**)"]), plain)).toBe("AADA");
  });
});

describe("shell commands writing to protected paths", () => {
  const cmd = (text: string) => () =>
    [{ kind: "command", command: parseCommandSync(text), cwd: P }] as Action[];
  const allowAll = rules(["Bash", "Edit"]);

  it.each([
    "echo x > .git/hooks/pre-commit",
    "echo x >> .git/config",
    "cat a &> .mcp.json",
    "printf '%s' x >| .z-engine/settings.toml",
    "npm test > .claude/settings.local.json",
    "echo x > ../extra/.mcp.json",
    "tee .git/hooks/post-merge < a",
    "cp evil .git/hooks/pre-commit",
    "cd .git && echo x > hooks/pre-commit",
    "echo x > ~/.config/z-engine/settings.toml",
  ])("`%s` asks even under `Bash` and `Edit` allow rules", (text) => {
    expect(outcomes("Bash", cmd(text), allowAll)).toBe("QQDA");
  });

  it("the sandbox's auto-allow does not pass them", () => {
    const sandboxed = { ...ctx, sandbox: { autoAllow: true, writableRoots: [P] } };
    expect(outcomes("Bash", cmd("make > .git/config"), rules([]), sandboxed)).toBe("QQDA");
    expect(outcomes("Bash", cmd("make > build.log"), rules([]), sandboxed)).toBe("AADA");
  });

  it("deny rules still deny", () => {
    const r = rules(["Bash"], ["Edit(/.git/**)"]);
    expect(outcomes("Bash", cmd("echo x > .git/config"), r)).toBe("DDDD");
  });

  it("ordinary redirections keep their defaults", () => {
    expect(outcomes("Bash", cmd("echo x > .github/x.yml"), allowAll)).toBe("AADA");
  });
});
