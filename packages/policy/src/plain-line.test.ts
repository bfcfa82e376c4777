import { describe, expect, it } from "vitest";
import { parsePlainLine } from "./plain-line.js";
import {
  ShellParserError,
  initShellParser,
  isShellParserReady,
  parseCommandSync,
  parseWithTreeSitter,
} from "./shell-parser.js";

// Plain lines are split without tree-sitter-bash (issue 18: the first shell command need not
// wait for the grammar). What they give must be exactly what the parser gives.

const WORDS = [
  "npm",
  "test",
  "run",
  "build",
  "git",
  "status",
  "log",
  "-n",
  "5",
  "--oneline",
  "pytest",
  "-x",
  "tests/unit",
  "./scripts/check.sh",
  "cargo",
  "go",
  "./...",
  "ls",
  "-la",
  "src",
  "a.b",
  "x/y/z",
  "@scope/pkg",
  "+x",
  "a,b",
  "1.2.3",
  ":",
  ".",
  "-",
  "--",
  "-c",
  "env",
  "timeout",
  "60",
  "nice",
  "nohup",
  "sudo",
  "xargs",
  "command",
  "exec",
  "builtin",
  "eval",
  "bash",
  "sh",
  "zsh",
  "source",
  "time",
  "if",
  "then",
  "for",
  "do",
  "done",
  "in",
  "export",
  "declare",
  "local",
  "unset",
  "test",
  "true",
  "false",
  "node",
  "python3",
  "-m",
  "pip",
  "install",
  "make",
  "-j4",
  "docker",
  "compose",
  "up",
  "rm",
  "-rf",
  "dist",
  "mv",
  "cp",
];

/** A deterministic generator, so a failure names a line that fails again. */
function* lines(count: number): Generator<string> {
  let seed = 42;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed;
  };
  for (let i = 0; i < count; i++) {
    const length = 1 + (next() % 6);
    const words = Array.from({ length }, () => WORDS[next() % WORDS.length] as string);
    yield words.join(next() % 5 === 0 ? "  " : " ");
  }
}

describe("a line of plain words", () => {
  it("is split before the grammar is loaded; any other line still needs it", () => {
    expect(isShellParserReady()).toBe(false);
    expect(parseCommandSync("npm test").commands).toEqual([
      { argv: ["npm", "test"], text: "npm test" },
    ]);
    expect(() => parseCommandSync("npm test | tail -n 5")).toThrow(ShellParserError);
  });

  it("gives exactly what tree-sitter-bash gives, for every line it takes", async () => {
    await initShellParser();
    let taken = 0;
    for (const line of lines(3000)) {
      const plain = parsePlainLine(line);
      if (!plain) continue;
      taken++;
      expect(plain, line).toEqual(parseWithTreeSitter(line));
    }
    expect(taken).toBeGreaterThan(500);
  });

  it("leaves to the parser what bash reads as more than words", () => {
    for (const line of [
      "FOO=1 npm test",
      "npm test --grep=x",
      "echo $HOME",
      "ls ~",
      "ls *.ts",
      "echo {a,b}",
      "npm test; rm x",
      "npm test && echo ok",
      "cat < in",
      "echo 'x'",
      "echo a\\ b",
      "echo a\tb",
      " npm test",
      "npm test ",
      "time npm test",
      "export PATH",
      "bash -c ls",
      "eval ls",
      "%1",
      "# comment",
    ]) {
      expect(parsePlainLine(line), line).toBeUndefined();
    }
  });
});
