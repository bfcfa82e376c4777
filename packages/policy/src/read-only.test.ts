import { describe, expect, it } from "vitest";
import { isReadOnlyCommand, readPathWords, writePathWords } from "./read-only.js";
import { parseCommand } from "./shell-parser.js";

describe("isReadOnlyCommand", () => {
  it.each([
    "ls -la",
    "cat a b | head -5",
    "grep -rn foo src",
    "rg foo",
    "find . -name '*.ts'",
    "git status",
    "git log --oneline -5",
    "git diff HEAD~1",
    "git show HEAD:src/a.ts",
    "git branch -a",
    "wc -l a 2>/dev/null",
    "ls 2>&1",
    "pwd; echo hi",
    "sort a | uniq -c",
  ])("%j is read-only", async (text) => {
    expect(isReadOnlyCommand(await parseCommand(text))).toBe(true);
  });
  it.each([
    "find . -delete",
    "find . -exec rm {} ;",
    "rg --pre ./x foo",
    "sort -o out a",
    "git push",
    "git branch -D main",
    "git diff --output=x",
    "git -C /x status",
    "ls > out",
    "cat a >> b",
    "echo $(rm x)",
    "npm test",
    "LC_ALL=C ls",
    "sed -n 1p a",
    "uniq a b",
    "env rm x",
    "date -s now",
    "",
  ])("%j is not read-only", async (text) => {
    expect(isReadOnlyCommand(await parseCommand(text))).toBe(false);
  });
  it("names the words that may be read or written", () => {
    expect(readPathWords(["grep", "-f", "/etc/x", "--file=/etc/y", "pat", "src"])).toEqual([
      "/etc/x",
      "/etc/y",
      "pat",
      "src",
    ]);
    expect(readPathWords(["echo", "/etc/passwd"])).toEqual([]);
    expect(readPathWords(["git", "diff", "a", "--", "b"])).toEqual(["a", "b"]);
    expect(readPathWords(["cd"])).toEqual(["~"]);
    expect(writePathWords(["cp", "-r", "a", "b"])).toEqual(["a", "b"]);
    expect(writePathWords(["dd", "if=x", "of=/dev/sda"])).toEqual(["/dev/sda"]);
    expect(writePathWords(["sed", "-i", "s/a/b/", "f"])).toEqual(["s/a/b/", "f"]);
    expect(writePathWords(["npm", "test"])).toEqual([]);
  });
});
