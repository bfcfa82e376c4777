import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { TestCounts } from "@z-engine/protocol";
import { describe, expect, it } from "vitest";
import { parseTestCounts, TEST_COUNT_PARSERS } from "./counts.js";

const FIXTURES = join(import.meta.dirname, "fixtures");

function fixture(name: string): { output: string; command: string; meta: string } {
  const meta = readFileSync(join(FIXTURES, `${name}.cmd`), "utf8");
  const command = /^command: (.*)$/m.exec(meta)?.[1] ?? "";
  return { output: readFileSync(join(FIXTURES, `${name}.txt`), "utf8"), command, meta };
}

const c = (passed: number, failed: number, skipped: number): TestCounts => ({
  passed,
  failed,
  skipped,
});

// Captured by capture-run.sh from the real tools unless the .cmd says "written from documented format".
const EXPECTED: Record<string, TestCounts | null> = {
  "node-test-tap": c(2, 1, 2),
  "node-test-spec": c(2, 1, 2),
  vitest: c(3, 1, 1),
  jest: c(3, 1, 1),
  mocha: c(2, 1, 1),
  "bun-test": c(2, 1, 1),
  "deno-test": c(2, 1, 1),
  pytest: c(2, 1, 2),
  "pytest-quiet": c(2, 1, 2),
  "go-test": null,
  "go-test-verbose": c(3, 1, 1),
  gotestsum: c(3, 1, 1),
  "cargo-test": c(2, 1, 1),
  "cargo-test-pass": c(3, 0, 1),
  ctest: c(2, 1, 1),
  "maven-surefire": c(2, 1, 1),
  nextest: c(3, 1, 1),
  gradle: c(2, 1, 1),
  "gradle-events": c(2, 0, 1),
  "dotnet-test": c(5, 1, 1),
  "dotnet-test-legacy": c(3, 0, 1),
};

describe("parseTestCounts on recorded runner output", () => {
  it("has an expectation for every fixture and a command for each", () => {
    const names = readdirSync(FIXTURES)
      .filter((f) => f.endsWith(".txt"))
      .map((f) => f.slice(0, -4))
      .sort();
    expect(names).toEqual(Object.keys(EXPECTED).sort());
    for (const name of names) expect(fixture(name).command).not.toBe("");
  });

  for (const [name, expected] of Object.entries(EXPECTED)) {
    it(`${name}: counts with the command and by sniffing alone`, () => {
      const { output, command } = fixture(name);
      expect(parseTestCounts(output, { command })).toEqual(expected);
      expect(parseTestCounts(output)).toEqual(expected);
    });
  }

  it("labels the fixtures that could not be captured here", () => {
    for (const name of [
      "nextest",
      "gradle",
      "gradle-events",
      "dotnet-test",
      "dotnet-test-legacy",
    ]) {
      expect(fixture(name).meta).toContain("written from documented format");
    }
    expect(fixture("vitest").meta).toMatch(/^exit: 1$/m);
  });

  it("sums the summaries of several runs (a monorepo's recursive test)", () => {
    const { output } = fixture("vitest");
    expect(parseTestCounts(`${output}\n${output}`)).toEqual(c(6, 2, 2));
    const cargo = fixture("cargo-test-pass").output;
    expect(parseTestCounts(cargo + cargo, { command: "cargo test" })).toEqual(c(6, 0, 2));
  });

  it("prefers the parser the command names over sniffing", () => {
    const mixed = `${fixture("jest").output}\n${fixture("pytest").output}`;
    expect(parseTestCounts(mixed)).toEqual(c(3, 1, 1));
    expect(parseTestCounts(mixed, { command: "python -m pytest -q" })).toEqual(c(2, 1, 2));
  });

  it("falls back to sniffing when the command's parser finds nothing", () => {
    expect(parseTestCounts(fixture("vitest").output, { command: "npm test" })).toEqual(c(3, 1, 1));
    expect(parseTestCounts(fixture("vitest").output, { command: "cargo test" })).toEqual(
      c(3, 1, 1),
    );
  });
});

describe("parseTestCounts on bad input", () => {
  it("returns null for empty, unrelated and binary-looking output", () => {
    expect(parseTestCounts("")).toBeNull();
    expect(parseTestCounts("Compiling...\nDone in 2s\n")).toBeNull();
    expect(parseTestCounts("\u0000\u0001\uFFFD\u001b[31m\u001b]8;;x\u0007")).toBeNull();
  });

  it("does not take a truncated summary for a count", () => {
    expect(parseTestCounts("test result: ok. 3 passed; 0 fail")).toBeNull();
    expect(parseTestCounts("Tests:  ")).toBeNull();
    expect(parseTestCounts("# pass")).toBeNull();
  });

  it("handles Windows line ends and colour codes", () => {
    const crlf = fixture("jest").output.replace(/\n/g, "\r\n");
    expect(parseTestCounts(crlf)).toEqual(c(3, 1, 1));
    const coloured = "\u001b[32m 2 passing (3ms)\u001b[0m\n\u001b[31m  1 failing\u001b[0m\n";
    expect(parseTestCounts(coloured.replace("\u001b[32m ", "\u001b[32m  "))).toEqual(c(2, 1, 0));
  });

  it("reads a huge output quickly", () => {
    const noise = "x".repeat(200).concat("\n").repeat(25_000);
    const started = performance.now();
    const counts = parseTestCounts(`${noise}${fixture("pytest-quiet").output}`);
    expect(counts).toEqual(c(2, 1, 2));
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it("every parser returns null on every other runner's unrelated empty summary", () => {
    for (const parser of TEST_COUNT_PARSERS) expect(parser.parse("nothing to see\n")).toBeNull();
  });
});
