import { describe, expect, it } from "vitest";
import { compileGlob, matchGlob } from "./glob.js";

const m = (pattern: string, path: string, anyDepth = false) =>
  matchGlob(compileGlob(pattern, anyDepth), path);

describe("gitignore-style globs", () => {
  it.each([
    ["src/**", "src/a/b.ts", true],
    ["src/**", "src", false],
    ["src/**", "srcx/a", false],
    ["src/*.ts", "src/a.ts", true],
    ["src/*.ts", "src/a/b.ts", false],
    ["src/**/*.ts", "src/a.ts", true],
    ["src/**/*.ts", "src/a/b/c.ts", true],
    ["**/node_modules", "a/node_modules/x", true],
    ["secrets", "secrets/key", true],
    ["secrets/", "secrets/key", true],
    ["a?c", "abc", true],
    ["a?c", "a/c", false],
    ["[ab].txt", "b.txt", true],
    ["[!ab].txt", "c.txt", true],
    ["[!ab].txt", "a.txt", false],
    ["file\\*", "file*", true],
    ["file\\*", "filex", false],
    ["a.b", "aXb", false],
    ["", "anything/at/all", true],
    ["**", "x", true],
  ])("%j vs %j -> %s", (pattern, path, expected) => {
    expect(m(pattern, path)).toBe(expected);
  });
  it("lets a slash-free pattern match at any depth when asked", () => {
    expect(m("*.env", "a/b/.env", true)).toBe(true);
    expect(m("*.env", "a/b/.env", false)).toBe(false);
    expect(m(".env", "deep/dir/.env/inner", true)).toBe(true);
  });
  it("is case-sensitive", () => {
    expect(m("src/**", "SRC/a")).toBe(false);
  });
});
