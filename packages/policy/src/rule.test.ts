import { describe, expect, it } from "vitest";
import { compileRules } from "./compile.js";
import { parseRule } from "./rule.js";

describe("parseRule", () => {
  it.each([
    ["Bash", { kind: "tool", tool: "Bash" }],
    ["Bash(*)", { kind: "tool", tool: "Bash" }],
    ["WebSearch", { kind: "tool", tool: "WebSearch" }],
    ["Bash(npm test:*)", { kind: "command", match: "prefix", words: ["npm", "test"] }],
    ["Bash(npm run build)", { kind: "command", match: "exact", words: ["npm", "run", "build"] }],
    ["Bash(git * main)", { kind: "command", match: "wildcard" }],
    [
      'Bash(git commit -m "a b")',
      { kind: "command", match: "exact", words: ["git", "commit", "-m", "a b"] },
    ],
    ["Read(//etc/**)", { kind: "path", tool: "Read", anchor: "absolute", pattern: "etc/**" }],
    ["Read(~/.ssh/**)", { kind: "path", anchor: "home", pattern: ".ssh/**" }],
    [
      "Edit(/src/**/*.ts)",
      { kind: "path", tool: "Edit", anchor: "settings", pattern: "src/**/*.ts" },
    ],
    ["Write(docs/**)", { kind: "path", tool: "Write", anchor: "project", pattern: "docs/**" }],
    ["Read(./.env)", { kind: "path", anchor: "project", pattern: ".env" }],
    ["Edit(**)", { kind: "path", anchor: "project", pattern: "**" }],
    ["MultiEdit(src/**)", { kind: "path", tool: "Edit" }],
    ["WebFetch(domain:Docs.RS)", { kind: "domain", domain: "docs.rs" }],
    ["WebFetch(domain:*.example.com)", { kind: "domain", domain: "*.example.com" }],
    ["mcp__github", { kind: "mcp", server: "github" }],
    ["mcp__github__*", { kind: "mcp", server: "github" }],
    ["mcp__my-server__create_issue", { kind: "mcp", server: "my-server", tool: "create_issue" }],
    ["Task(Explore)", { kind: "agent", agentType: "Explore" }],
    ["Skill(pdf-forms)", { kind: "skill", skill: "pdf-forms" }],
    ["  Bash(ls:*)  ", { kind: "command", text: "Bash(ls:*)" }],
  ])("%j", (text, expected) => {
    const r = parseRule(text);
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.rule).toMatchObject(expected);
  });

  it.each([
    ["", /empty/],
    ["bash(ls)", /case-sensitive.*Bash/],
    ["read", /did you mean "Read"/],
    ["Bash()", /empty specifier/],
    ["Bash(npm test", /end with/],
    ["Bash(:*)", /empty command prefix/],
    ["Bash(git * x:*)", /prefix rule/],
    ["Bash(npm test && rm:*)", /one simple command/],
    ["Bash(a $(b))", /one simple command/],
    ['Bash(echo "x)', /unbalanced/],
    ["Read(../secret)", /not allowed/],
    ["Edit(/src/../..)", /not allowed/],
    ["Read(~bob/x)", /only "~\/"/],
    ["Read(src/[ab)", /unclosed/],
    ["WebFetch(https://x.com)", /domain:host/],
    ["WebFetch(domain:a b)", /not a host/],
    ["Grep(pattern)", /take no specifier/],
    ["mcp__", /not an MCP rule/],
    ["mcp__gh__a*b", /only as the whole tool name/],
    ["mcp__gh(x)", /not an MCP rule/],
    ["not a rule", /not a rule/],
    ["Task(a b)", /agent type/],
  ])("rejects %j", (text, message) => {
    const r = parseRule(text);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(message);
  });

  it("never throws on hostile input", () => {
    for (const text of [
      "(".repeat(10_000),
      `Bash(${"a ".repeat(50_000)}:*)`,
      "\0",
      "Read(\0)",
      "😀(x)",
    ]) {
      expect(() => parseRule(text)).not.toThrow();
    }
  });
});

describe("compileRules", () => {
  it("reports bad rules with their source and keeps the rest in order", () => {
    const { rules, errors } = compileRules(["Bash(ls:*)", "bash(x)", "Read(//etc/**)", "Foo(x)"], {
      source: "/p/.z-engine/settings.toml",
      root: "/p/",
    });
    expect(rules.map((r) => r.rule.text)).toEqual(["Bash(ls:*)", "Read(//etc/**)"]);
    expect(rules[0]?.origin).toEqual({ source: "/p/.z-engine/settings.toml", root: "/p" });
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatchObject({ text: "bash(x)", source: "/p/.z-engine/settings.toml" });
  });
  it("matches wildcard command rules the documented way", () => {
    const { rules } = compileRules(["Bash(ls *)", "Bash(git * main)", "Bash(npm run test*)"], {
      source: "s",
    });
    const [ls, git, npm] = rules.map((r) => r.commandTest ?? (() => false));
    expect([ls?.(["ls"]), ls?.(["ls", "-la"]), ls?.(["lsof"])]).toEqual([true, true, false]);
    expect([git?.(["git", "push", "origin", "main"]), git?.(["git", "push", "main2"])]).toEqual([
      true,
      false,
    ]);
    expect([npm?.(["npm", "run", "test:unit"]), npm?.(["npm", "run", "tes"])]).toEqual([
      true,
      false,
    ]);
  });
});
