import { describe, expect, it } from "vitest";
import { failureSummary, headSummary } from "./output-summary.js";

const TAP = `
> login-demo@1.0.0 test
> node --test

TAP version 13
# Subtest: login token expires at its expiry time
not ok 1 - login token expires at its expiry time
  ---
  duration_ms: 1.9075
  location: '/tmp/x/test/token.test.js:5:1'
  failureType: 'testCodeFailure'
  error: |-
    Expected values to be strictly equal:
    
    false !== true
    
  code: 'ERR_ASSERTION'
  name: 'AssertionError'
  expected: true
  actual: false
  operator: 'strictEqual'
  stack: |-
    TestContext.<anonymous> (file:///tmp/x/test/token.test.js:6:10)
  ...
1..1
# tests 1
# suites 0
# pass 0
# fail 1
# cancelled 0
`;

describe("a failed command's row", () => {
  it("shows the failed assertion and the counts, not npm's preamble", () => {
    const { lines, hidden } = failureSummary(TAP);
    expect(lines[0]).toBe("not ok 1 - login token expires at its expiry time");
    expect(lines.join("\n")).toContain("Expected values to be strictly equal:");
    expect(lines.join("\n")).toContain("false !== true");
    expect(lines.slice(-3)).toEqual(["# tests 1", "# pass 0", "# fail 1"]);
    expect(lines.join("\n")).not.toContain("> node --test");
    expect(hidden).toBeGreaterThan(10);
  });

  it("falls back to the last lines when no failure line is recognised", () => {
    const { lines } = failureSummary("one\ntwo\nthree\nfour\nfive\nsix\nseven\n");
    expect(lines).toEqual(["three", "four", "five", "six", "seven"]);
  });
});

describe("a successful command's row", () => {
  it("shows its first lines after npm's preamble", () => {
    expect(headSummary("\n> a@1 build\n> tsc\n\nbuilt 3 files\nok\n").lines).toEqual([
      "built 3 files",
      "ok",
    ]);
  });
});
