import { describe, expect, it } from "vitest";
import {
  parseAgentMarkdown,
  parseCommandMarkdown,
  parseOutputStyleMarkdown,
} from "./definitions.js";

describe("parseAgentMarkdown", () => {
  it("reads Claude Code's agent format", () => {
    const text =
      "---\nname: reviewer\ndescription: Reviews code\ntools: Read, Grep, Bash(git diff:*)\nmodel: sonnet\n---\n\nYou review.\n";
    expect(parseAgentMarkdown(text)).toEqual({
      ok: true,
      value: {
        name: "reviewer",
        description: "Reviews code",
        tools: ["Read", "Grep", "Bash(git diff:*)"],
        disallowedTools: [],
        model: "sonnet",
        permissionMode: undefined,
        maxTurns: undefined,
        skills: [],
        color: undefined,
        hooks: { hooks: [], problems: [] },
        prompt: "You review.",
      },
    });
  });

  it("inherits tools and model when they are absent or *", () => {
    const result = parseAgentMarkdown("---\ndescription: d\ntools: '*'\n---\nP", "from-file");
    expect(result.ok && result.value).toMatchObject({
      name: "from-file",
      tools: undefined,
      model: "inherit",
    });
  });

  it("reads disallowedTools, maxTurns, skills, color and Claude Code's mode names", () => {
    const text = [
      "---",
      "name: jira",
      "description: Works tickets",
      "tools:",
      "  - Read",
      "  - mcp__jira__*",
      "disallowedTools: Bash, Write",
      "permissionMode: bypassPermissions",
      "maxTurns: 7",
      "skills: [triage, estimate]",
      "color: purple",
      "x-unknown: ignored",
      "---",
      "Body",
    ].join("\n");
    expect(parseAgentMarkdown(text)).toEqual({
      ok: true,
      value: {
        name: "jira",
        description: "Works tickets",
        tools: ["Read", "mcp__jira__*"],
        disallowedTools: ["Bash", "Write"],
        model: "inherit",
        permissionMode: "bypass",
        maxTurns: 7,
        skills: ["triage", "estimate"],
        color: "purple",
        hooks: { hooks: [], problems: [] },
        prompt: "Body",
      },
    });
    const plain = parseAgentMarkdown(
      "---\nname: a\ndescription: d\npermissionMode: default\n---\n",
    );
    expect(plain.ok && plain.value.permissionMode).toBe("ask");
  });

  it("turns a literal \\n in an unquoted description into a line break", () => {
    const result = parseAgentMarkdown(
      "---\nname: a\ndescription: One.\\n\\n<example>x</example>\n---\nP",
    );
    expect(result.ok && result.value.description).toBe("One.\n\n<example>x</example>");
  });

  it("rejects a maxTurns that is not a positive integer", () => {
    expect(parseAgentMarkdown("---\nname: a\ndescription: d\nmaxTurns: many\n---\nx")).toEqual({
      ok: false,
      error: 'agent a: maxTurns "many" is not a positive integer',
    });
  });

  it("rejects a missing description and an unknown permission mode", () => {
    expect(parseAgentMarkdown("---\nname: a\n---\nx")).toEqual({
      ok: false,
      error: "agent a has no description",
    });
    const bad = parseAgentMarkdown("---\nname: a\ndescription: d\npermissionMode: yolo\n---\nx");
    expect(bad).toEqual({ ok: false, error: 'agent a: unknown permission mode "yolo"' });
  });
});

describe("parseCommandMarkdown", () => {
  it("reads Claude Code's command format", () => {
    const text =
      "---\ndescription: Commit\nallowed-tools: Bash(git add:*), Bash(git commit:*)\nargument-hint: [message]\nmodel: haiku\n---\nCommit with $ARGUMENTS\n";
    const result = parseCommandMarkdown(text, "commit");
    expect(result).toEqual({
      ok: true,
      value: {
        name: "commit",
        description: "Commit",
        allowedTools: ["Bash(git add:*)", "Bash(git commit:*)"],
        argumentHint: "[message]",
        model: "haiku",
        disableModelInvocation: false,
        hooks: { hooks: [], problems: [] },
        body: "Commit with $ARGUMENTS",
      },
    });
  });

  it("keeps a quoted argument hint and falls back to the first line for a description", () => {
    const result = parseCommandMarkdown(
      '---\nargument-hint: "[file]"\n---\nExplain $1\nmore',
      "explain",
    );
    expect(result.ok && result.value).toMatchObject({
      argumentHint: "[file]",
      description: "Explain $1",
    });
    expect(parseCommandMarkdown("no frontmatter at all", "plain")).toMatchObject({ ok: true });
    // A YAML list is shown as written, not re-bracketed item by item.
    const list = parseCommandMarkdown("---\nargument-hint: [file, line]\n---\nGo to $1:$2", "go");
    expect(list.ok && list.value.argumentHint).toBe("[file, line]");
  });

  it("rejects an empty body and broken frontmatter", () => {
    expect(parseCommandMarkdown("---\ndescription: d\n---\n  \n", "x")).toEqual({
      ok: false,
      error: "command x has an empty body",
    });
    expect(parseCommandMarkdown("---\ndescription: d\n", "x").ok).toBe(false);
  });
});

describe("parseOutputStyleMarkdown", () => {
  it("takes the file name and an empty description when they are missing; needs a body", () => {
    expect(parseOutputStyleMarkdown("---\nname: s\n---\nbody")).toEqual({
      ok: true,
      value: { name: "s", description: "", prompt: "body" },
    });
    expect(parseOutputStyleMarkdown("---\nname: s\n---\n\n").ok).toBe(false);
    expect(parseOutputStyleMarkdown("body only").ok).toBe(false);
    expect(parseOutputStyleMarkdown("---\ndescription: d\n---\nbody", "s")).toEqual({
      ok: true,
      value: { name: "s", description: "d", prompt: "body" },
    });
  });
});
