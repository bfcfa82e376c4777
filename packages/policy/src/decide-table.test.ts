import type { PermissionMode } from "@z-engine/protocol";
import { beforeAll, describe, expect, it } from "vitest";
import type { Action } from "./action.js";
import { compileRules } from "./compile.js";
import type { DecideContext } from "./context.js";
import { decide } from "./decide.js";
import { initShellParser, parseCommandSync } from "./shell-parser.js";

// Every mode against every action kind and every rule kind (none, allow, ask, deny):
// 11 action kinds x 4 rule states x 4 modes = 176 decisions, each written out by hand.

const P = "/work/proj";
const HOME = "/home/u";
const ctx: DecideContext = {
  projectRoot: P,
  additionalDirectories: ["/work/extra"],
  homeDir: HOME,
  autoAllowReadOnlyBash: true,
};
const MODES: PermissionMode[] = ["ask", "acceptEdits", "plan", "bypass"];
const WORD = { A: "allow", Q: "ask", D: "deny" } as const;

interface Kind {
  tool: string;
  actions: () => Action[];
  rule: string;
  /** Expected per rule state, one letter per mode (ask, acceptEdits, plan, bypass). */
  expect: { none: string; allow: string; ask: string; deny: string };
}

const cmd = (text: string): Action[] => [
  { kind: "command", command: parseCommandSync(text), cwd: P },
];

const KINDS: Record<string, Kind> = {
  "read inside": {
    tool: "Read",
    actions: () => [{ kind: "read", paths: [`${P}/src/a.ts`] }],
    rule: "Read(/src/**)",
    expect: { none: "AAAA", allow: "AAAA", ask: "QQQA", deny: "DDDD" },
  },
  "read outside": {
    tool: "Grep",
    actions: () => [{ kind: "read", paths: ["/etc/hosts"] }],
    rule: "Read(//etc/**)",
    expect: { none: "QQQA", allow: "AAAA", ask: "QQQA", deny: "DDDD" },
  },
  "write inside": {
    tool: "Edit",
    actions: () => [{ kind: "write", paths: [`${P}/src/a.ts`] }],
    rule: "Edit(/src/**)",
    expect: { none: "QADA", allow: "AADA", ask: "QQDA", deny: "DDDD" },
  },
  "write outside": {
    tool: "Write",
    actions: () => [{ kind: "write", paths: ["/tmp/x/y.txt"] }],
    rule: "Write(//tmp/**)",
    expect: { none: "QQDA", allow: "AADA", ask: "QQDA", deny: "DDDD" },
  },
  "read-only command": {
    tool: "Bash",
    actions: () => cmd("ls -la src"),
    rule: "Bash(ls:*)",
    expect: { none: "AAAA", allow: "AAAA", ask: "QQQA", deny: "DDDD" },
  },
  "other command": {
    tool: "Bash",
    actions: () => cmd("npm test -- --watch=false"),
    rule: "Bash(npm test:*)",
    expect: { none: "QQDA", allow: "AADA", ask: "QQDA", deny: "DDDD" },
  },
  network: {
    tool: "WebFetch",
    actions: () => [{ kind: "network", url: "https://example.com/a", domain: "example.com" }],
    rule: "WebFetch(domain:example.com)",
    expect: { none: "QQQA", allow: "AAAA", ask: "QQQA", deny: "DDDD" },
  },
  mcp: {
    tool: "mcp__gh__create_issue",
    actions: () => [{ kind: "mcp", server: "gh", tool: "create_issue" }],
    rule: "mcp__gh",
    expect: { none: "QQDA", allow: "AADA", ask: "QQDA", deny: "DDDD" },
  },
  agent: {
    tool: "Task",
    actions: () => [{ kind: "agent", agentType: "Explore" }],
    rule: "Task(Explore)",
    expect: { none: "AAAA", allow: "AAAA", ask: "QQQA", deny: "DDDD" },
  },
  "ask the user": {
    tool: "AskUserQuestion",
    actions: () => [{ kind: "askUser" }],
    rule: "AskUserQuestion",
    expect: { none: "AAAA", allow: "AAAA", ask: "QQQA", deny: "DDDD" },
  },
  nothing: {
    tool: "TodoWrite",
    actions: () => [{ kind: "none" }],
    rule: "TodoWrite",
    expect: { none: "AAAA", allow: "AAAA", ask: "QQQA", deny: "DDDD" },
  },
};

function rulesWith(state: "none" | "allow" | "ask" | "deny", rule: string) {
  const list = (s: string) =>
    state === s ? compileRules([rule], { source: "settings.toml", root: P }).rules : [];
  return { allow: list("allow"), ask: list("ask"), deny: list("deny") };
}

beforeAll(async () => {
  await initShellParser();
});

describe("decide: every mode x action kind x rule kind", () => {
  const cases: [string, string, PermissionMode, string][] = [];
  for (const [name, kind] of Object.entries(KINDS)) {
    for (const state of ["none", "allow", "ask", "deny"] as const) {
      MODES.forEach((mode, i) => {
        cases.push([name, state, mode, kind.expect[state][i] ?? "?"]);
      });
    }
  }
  it("has the whole table", () => {
    expect(cases.length).toBe(176);
  });
  it.each(cases)("%s, rule state %s, mode %s -> %s", (name, state, mode, letter) => {
    const kind = KINDS[name] as Kind;
    const rules = rulesWith(state as "none", kind.rule);
    const d = decide({ toolName: kind.tool, actions: kind.actions() }, mode, rules, ctx);
    expect(d.type).toBe(WORD[letter as keyof typeof WORD]);
    if (d.type === "deny" && state !== "deny") expect(d.reason).toContain("ExitPlanMode");
    if (d.type === "deny" && state === "deny") expect(d.reason).toContain(kind.rule);
    if (d.type === "ask" && state === "ask") expect(d.suggestedRules).toEqual([]);
  });
});
