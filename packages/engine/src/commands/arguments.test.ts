import { describe, expect, it } from "vitest";
import { shellWords, substituteArguments } from "./arguments.js";

describe("shellWords", () => {
  it("splits like a shell: quotes group and are removed, backslash escapes", () => {
    expect(shellWords(`fix "the login bug" 'and more' a\\ b  `)).toEqual([
      "fix",
      "the login bug",
      "and more",
      "a b",
    ]);
    expect(shellWords("")).toEqual([]);
    expect(shellWords(`"" x`)).toEqual(["", "x"]);
  });
});

describe("substituteArguments (Claude Code's /\\$(\\d+)(?!\\w)/ rule, 1-based $1..$9)", () => {
  const table: Array<[template: string, args: string, expected: string]> = [
    ["Fix issue $ARGUMENTS now", "123 urgent", "Fix issue 123 urgent now"],
    ["Review PR #$1 with priority $2", "456 high", "Review PR #456 with priority high"],
    ["Second word: $ARGUMENTS[1]", "a b c", "Second word: b"],
    // Prices: $45 is not $4 (a digit follows), and no 45th word exists.
    ["Budget $45,234.67 for $1", "Q3", "Budget $45,234.67 for Q3"],
    // awk inside a code block is rewritten only when a word exists at that place.
    ["```\nawk '{sum+=$1} END {print $0}'\n```", "", "```\nawk '{sum+=$1} END {print $0}'\n```"],
    ["Use $1.\n```\nawk '{sum+=$2}'\n```", "data.csv", "Use data.csv.\n```\nawk '{sum+=$2}'\n```"],
    ["```\nawk '{print $1}'\n```", "x y", "```\nawk '{print x}'\n```"],
    // $1 followed by a word character is not a placeholder; $10 and $0 never are.
    ["$1abc $10 $0 $1_", "one", "$1abc $10 $0 $1_\n\nARGUMENTS: one"],
    // A backslash keeps a placeholder literal; before anything else it stays.
    [
      "Cost \\$1 and \\$ARGUMENTS, echo \\$HOME, $1",
      "x",
      "Cost $1 and $ARGUMENTS, echo \\$HOME, x",
    ],
    // Missing words leave their placeholders; no placeholder used: the arguments are appended.
    ["Compare $1 and $2", "only", "Compare only and $2"],
    ["No placeholders here.", "some text", "No placeholders here.\n\nARGUMENTS: some text"],
    ["No placeholders here.", "  ", "No placeholders here."],
    // Argument text is inserted literally (no $& or $$ games).
    ["Say $ARGUMENTS", "$& and $$ and $1", "Say $& and $$ and $1"],
    ["Quoted: $1 / $2", `"two words" last`, "Quoted: two words / last"],
  ];
  it.each(table)("%j with %j", (template, args, expected) => {
    expect(substituteArguments(template, args)).toBe(expected);
  });
});
