import { beforeAll, describe, expect, it } from "vitest";
import { compileRules } from "./compile.js";
import type { DecideContext } from "./context.js";
import { decide } from "./decide.js";
import type { PermissionRules } from "./rule-index.js";
import { initShellParser, parseCommandSync } from "./shell-parser.js";

// An untrusted project's .git/config may name programs (core.fsmonitor, diff.external,
// textconv, a pager) that `git status` or `git log` start: until the folder is trusted, no
// git command is auto-allowed as read-only (issue 16).

const P = "/work/proj";
const base: DecideContext = {
  projectRoot: P,
  additionalDirectories: [],
  homeDir: "/home/u",
  autoAllowReadOnlyBash: true,
};
const none: PermissionRules = { allow: [], ask: [], deny: [] };

beforeAll(async () => {
  await initShellParser();
});

function decision(command: string, ctx: DecideContext, rules = none): string {
  const action = { kind: "command" as const, command: parseCommandSync(command), cwd: P };
  return decide({ toolName: "Bash", actions: [action] }, "ask", rules, ctx).type;
}

describe("git in an untrusted project", () => {
  const commands = ["git status", "git log --oneline", "git diff", "ls && git show HEAD"];

  it("is auto-allowed as read-only once the project is trusted", () => {
    for (const c of commands) expect(decision(c, base), c).toBe("allow");
  });

  it("asks while the project is untrusted, and other read-only commands still run", () => {
    const untrusted = { ...base, untrustedRepository: true };
    for (const c of commands) expect(decision(c, untrusted), c).toBe("ask");
    expect(decision("ls -la && cat README.md", untrusted)).toBe("allow");
  });

  it("is still allowed by the user's own allow rule", () => {
    const untrusted = { ...base, untrustedRepository: true };
    const rules: PermissionRules = {
      ...none,
      allow: compileRules(["Bash(git status:*)"], { source: "settings.toml", root: P }).rules,
    };
    expect(decision("git status", untrusted, rules)).toBe("allow");
  });
});
