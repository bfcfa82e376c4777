import { describe, expect, it } from "vitest";
import { parseSkillMarkdown } from "./skill.js";

describe("parseSkillMarkdown", () => {
  it("reads Claude Code's skill format and keeps unknown keys", () => {
    const text =
      "---\nname: pdf\ndescription: Fill PDF forms\nallowed-tools: Read, Bash(python3:*)\nwhen_to_use: a PDF form\nlicense: MIT\n---\n# PDF\n\nUse scripts/fill.py.\n";
    const result = parseSkillMarkdown(text, "folder");
    expect(result).toEqual({
      ok: true,
      value: {
        name: "pdf",
        description: "Fill PDF forms",
        whenToUse: "a PDF form",
        allowedTools: ["Read", "Bash(python3:*)"],
        disableModelInvocation: false,
        userInvocable: true,
        argumentHint: undefined,
        model: undefined,
        hooks: { hooks: [], problems: [] },
        body: "# PDF\n\nUse scripts/fill.py.",
        fields: {
          name: "pdf",
          description: "Fill PDF forms",
          "allowed-tools": "Read, Bash(python3:*)",
          when_to_use: "a PDF form",
          license: "MIT",
        },
      },
    });
  });

  it("reads what /<name> needs: user-invocable, argument-hint, model", () => {
    const text =
      "---\nname: deploy\nuser-invocable: false\nargument-hint: [env]\nmodel: haiku\n---\nGo.";
    expect(parseSkillMarkdown(text).ok && parseSkillMarkdown(text)).toMatchObject({
      value: { userInvocable: false, argumentHint: "[env]", model: "haiku" },
    });
    const plain = parseSkillMarkdown("---\nargument-hint: <path> <depth>\n---\nGo.", "x");
    expect(plain.ok && plain.value).toMatchObject({
      userInvocable: true,
      argumentHint: "<path> <depth>",
    });
  });

  it("takes the folder name and the first line when the frontmatter is missing", () => {
    const result = parseSkillMarkdown("# Release notes\nWrite them.", "release");
    expect(result.ok && result.value).toMatchObject({
      name: "release",
      description: "Release notes",
      allowedTools: [],
    });
    const list = parseSkillMarkdown("---\nallowed-tools:\n  - Read\n  - Grep\n---\nx", "s");
    expect(list.ok && list.value.allowedTools).toEqual(["Read", "Grep"]);
  });

  it("rejects an empty body and a name with spaces", () => {
    expect(parseSkillMarkdown("---\nname: a\n---\n", "a")).toEqual({
      ok: false,
      error: "skill a has an empty body",
    });
    expect(parseSkillMarkdown("---\nname: two words\n---\nx").ok).toBe(false);
    // With a folder whose name is valid, the folder's name stands in; the written one is kept.
    const named = parseSkillMarkdown("---\nname: Confidence Check\n---\nx", "confidence-check");
    expect(named.ok && [named.value.name, named.value.fields.name]).toEqual([
      "confidence-check",
      "Confidence Check",
    ]);
  });
});
