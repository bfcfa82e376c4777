import { describe, expect, it } from "vitest";
import {
  frontmatterBoolean,
  frontmatterList,
  frontmatterString,
  parseFrontmatter,
  splitTopLevel,
} from "./frontmatter.js";

describe("parseFrontmatter", () => {
  it("splits key-value fields from the body", () => {
    const result = parseFrontmatter("---\nname: explore\nmodel: fast\n---\nHello\n");
    expect(result).toEqual({ ok: true, data: { name: "explore", model: "fast" }, body: "Hello\n" });
  });

  it("reads block lists, inline lists, quoted values and block strings", () => {
    const text = [
      "---",
      "# a comment",
      "globs:",
      "  - src/**/*.ts",
      '  - "test/*.ts"',
      "tools: [Read, 'Grep', Bash(git diff:*, git log:*)]",
      'description: "Says \\"hi\\": twice"',
      "note: 'it''s fine'",
      "long: >",
      "  folded over",
      "  two lines",
      "keep: |",
      "  line one",
      "  line two",
      "empty:",
      "---",
      "body",
    ].join("\n");
    const result = parseFrontmatter(text);
    expect(result.ok && result.data).toEqual({
      globs: ["src/**/*.ts", "test/*.ts"],
      tools: ["Read", "Grep", "Bash(git diff:*, git log:*)"],
      description: 'Says "hi": twice',
      note: "it's fine",
      long: "folded over two lines",
      keep: "line one\nline two",
      empty: "",
    });
  });

  it("treats text without a leading --- as all body", () => {
    expect(parseFrontmatter("# Title\n---\nx: y\n")).toEqual({
      ok: true,
      data: {},
      body: "# Title\n---\nx: y\n",
    });
  });

  it("accepts CRLF line ends and a byte-order mark", () => {
    const result = parseFrontmatter("\uFEFF---\r\nname: a\r\n---\r\nbody\r\n");
    expect(result).toEqual({ ok: true, data: { name: "a" }, body: "body\n" });
  });

  it("reports an unclosed block and an unreadable line", () => {
    expect(parseFrontmatter("---\nname: a\nbody")).toEqual({
      ok: false,
      error: "frontmatter opened with --- but never closed",
    });
    const bad = parseFrontmatter("\n---\nthis is not yaml\nname: a\n---\n");
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.error).toContain("line 3");
  });

  it("reads the messy files Claude Code accepts", () => {
    const examples = [
      "---",
      "name: reviewer",
      "description: Use this agent after a change. Examples:\\n\\n<example>",
      'Context: the user says "review".',
      "user: please review",
      "<commentary>",
      "Reviews, then reports.",
      "</commentary>",
      "</example>",
      "tools: Read, Grep",
      "---",
      "Body",
    ].join("\n");
    const result = parseFrontmatter(examples);
    expect(result.ok && result.data.description).toBe(
      "Use this agent after a change. Examples:\\n\\n<example>",
    );
    expect(result.ok && result.data.Context).toBe('the user says "review".');
    expect(result.ok && result.data.user).toBe(
      "please review\n<commentary>\nReviews, then reports.\n</commentary>\n</example>",
    );
    expect(result.ok && result.data.tools).toBe("Read, Grep");
    expect(result.ok && result.body).toBe("Body");
  });

  it("folds a value that Prettier moved under its key, and keeps [a] [b] a string", () => {
    const text = [
      "---",
      "description:",
      "  Create interface designs and",
      "  design systems.",
      "argument-hint: [pr-number] [priority]",
      "allowed-tools: [Bash(git diff:*), Read]",
      "---",
    ].join("\n");
    expect(parseFrontmatter(text)).toEqual({
      ok: true,
      data: {
        description: "Create interface designs and design systems.",
        "argument-hint": "[pr-number] [priority]",
        "allowed-tools": ["Bash(git diff:*)", "Read"],
      },
      body: "",
    });
  });

  it("accepts blank lines before the fence, zero-width characters and a missing opening ---", () => {
    expect(parseFrontmatter("\n\n---\n\u200Bname: a\n---\nbody")).toEqual({
      ok: true,
      data: { name: "a" },
      body: "body",
    });
    expect(parseFrontmatter("name: b\ndescription: d\n---\nbody")).toEqual({
      ok: true,
      data: { name: "b", description: "d" },
      body: "body",
    });
    // A note above a horizontal rule is not frontmatter.
    const note = "Important: read this.\n\nA paragraph.\n---\nmore\n";
    expect(parseFrontmatter(note)).toEqual({ ok: true, data: {}, body: note });
    expect(parseFrontmatter("---\nname: c\nkeep: |-\n  x\n---\n").ok).toBe(true);
  });

  it("survives hostile input without throwing", () => {
    const huge = `---\n${"k: v\n".repeat(10_000)}---\n${"x".repeat(100_000)}`;
    const result = parseFrontmatter(huge);
    expect(result.ok && result.body.length).toBe(100_000);
    expect(parseFrontmatter('---\nd: "\\u12"\n---\n')).toEqual({
      ok: true,
      data: { d: "\\u12" },
      body: "",
    });
  });
});

describe("field helpers", () => {
  it("splits comma lists at the top level only", () => {
    expect(splitTopLevel("Read, Bash(git add:*, git commit:*), , Grep")).toEqual([
      "Read",
      "Bash(git add:*, git commit:*)",
      "Grep",
    ]);
    expect(frontmatterList("a,b")).toEqual(["a", "b"]);
    expect(frontmatterList(["a", ""])).toEqual(["a"]);
    expect(frontmatterList(undefined)).toBeUndefined();
  });

  it("reads strings and booleans", () => {
    expect(frontmatterString(["a", "b"])).toBe("a, b");
    expect(frontmatterString("")).toBeUndefined();
    expect(frontmatterBoolean("TRUE")).toBe(true);
    expect(frontmatterBoolean("off")).toBe(false);
    expect(frontmatterBoolean("maybe")).toBeUndefined();
    expect(frontmatterBoolean(["true"])).toBeUndefined();
  });
});
