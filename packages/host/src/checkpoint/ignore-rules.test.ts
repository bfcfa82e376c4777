import { describe, expect, it } from "vitest";
import { type IgnoreList, lastMatch, parseIgnoreList } from "./ignore-rules.js";

function parse(text: string | Uint8Array, base = ""): IgnoreList {
  const bytes = typeof text === "string" ? Buffer.from(text, "utf8") : text;
  const list = parseIgnoreList(bytes, Buffer.byteLength(base));
  if ("unsupported" in list) throw new Error(list.unsupported);
  return list;
}

/** The verdict of `text` (a whole ignore file in folder `base`) on `path`. */
function verdict(text: string, path: string, isDir = false, base = ""): boolean | undefined {
  return lastMatch(parse(text, base), Buffer.from(path, "utf8"), isDir);
}

describe("parseIgnoreList", () => {
  it("skips comments and blank lines, keeps escaped # and !", () => {
    expect(parse("# a comment\n\n   \nfoo\n").patterns).toHaveLength(1);
    expect(verdict("#foo", "#foo")).toBeUndefined();
    expect(verdict("\\#foo", "#foo")).toBe(true);
    expect(verdict("\\!foo", "!foo")).toBe(true);
    expect(verdict("\\!foo", "foo")).toBeUndefined();
  });

  it("strips unescaped trailing spaces and keeps an escaped one", () => {
    expect(verdict("foo   ", "foo")).toBe(true);
    expect(verdict("foo\\ ", "foo ")).toBe(true);
    expect(verdict("foo\\ ", "foo")).toBeUndefined();
    expect(verdict("foo\\  ", "foo ")).toBe(true);
    expect(verdict("foo\t", "foo")).toBeUndefined();
  });

  it("drops a CR before the newline, skips a BOM, needs no final newline", () => {
    expect(verdict("a\r\nb\r\n", "a")).toBe(true);
    expect(verdict("a\r\nb", "b")).toBe(true);
    expect(verdict("a\rb\n", "a\rb")).toBe(true);
    expect(verdict("\uFEFFfoo\n", "foo")).toBe(true);
    expect(verdict("x\n\uFEFFfoo\n", "foo")).toBeUndefined();
  });

  it("answers unsupported for POSIX classes and NUL bytes", () => {
    expect(parseIgnoreList(Buffer.from("[[:alpha:]]\n"), 0)).toHaveProperty("unsupported");
    expect(parseIgnoreList(Buffer.from("a\0b\n"), 0)).toHaveProperty("unsupported");
    expect(parseIgnoreList(Buffer.from("# [[:alpha:]]\n"), 0)).not.toHaveProperty("unsupported");
  });
});

describe("lastMatch", () => {
  it("lets the last matching pattern decide, and ! re-include", () => {
    expect(verdict("*.log\n!keep.log", "keep.log")).toBe(false);
    expect(verdict("!keep.log\n*.log", "keep.log")).toBe(true);
    expect(verdict("*.log\n!keep.log", "other.log")).toBe(true);
    expect(verdict("*.log", "a.txt")).toBeUndefined();
  });

  it("matches folder-only patterns on real folders only", () => {
    expect(verdict("build/", "build", true)).toBe(true);
    expect(verdict("build/", "build", false)).toBeUndefined();
    expect(verdict("build/", "src/build", true)).toBe(true);
    expect(verdict("/build/", "src/build", true)).toBeUndefined();
  });

  it("anchors a pattern with a leading or middle slash to its file's folder", () => {
    expect(verdict("/foo", "foo")).toBe(true);
    expect(verdict("/foo", "a/foo")).toBeUndefined();
    expect(verdict("a/foo", "a/foo")).toBe(true);
    expect(verdict("a/foo", "b/a/foo")).toBeUndefined();
    expect(verdict("foo", "a/b/foo")).toBe(true);
    expect(verdict("/foo", "sub/foo", false, "sub/")).toBe(true);
    expect(verdict("x/foo", "sub/x/foo", false, "sub/")).toBe(true);
    expect(verdict("foo", "sub/deep/foo", false, "sub/")).toBe(true);
  });

  it("matches *, ? and bracket expressions, never across a slash in a path pattern", () => {
    expect(verdict("*.js", "a/b/x.js")).toBe(true);
    expect(verdict("a/*.js", "a/b/x.js")).toBeUndefined();
    expect(verdict("a/*.js", "a/x.js")).toBe(true);
    expect(verdict("?.js", "x.js")).toBe(true);
    expect(verdict("?.js", "xy.js")).toBeUndefined();
    expect(verdict("a?b", "a/b")).toBeUndefined();
    expect(verdict("[abc].txt", "b.txt")).toBe(true);
    expect(verdict("[a-c].txt", "d.txt")).toBeUndefined();
    expect(verdict("[!a].txt", "a.txt")).toBeUndefined();
    expect(verdict("[^a].txt", "b.txt")).toBe(true);
    expect(verdict("[]a]", "]")).toBe(true);
    expect(verdict("[a-]", "-")).toBe(true);
    expect(verdict("[ab", "[ab")).toBeUndefined();
    expect(verdict("\\[ab", "[ab")).toBe(true);
    expect(verdict("\\*", "*")).toBe(true);
    expect(verdict("\\*", "x")).toBeUndefined();
  });

  it("matches bytes, not characters: ? is one byte of UTF-8", () => {
    expect(verdict("?", "é")).toBeUndefined();
    expect(verdict("??", "é")).toBe(true);
    expect(verdict("é*", "été")).toBe(true);
  });

  it("handles ** in its three forms, and as * elsewhere", () => {
    expect(verdict("**/foo", "foo")).toBe(true);
    expect(verdict("**/foo", "a/b/foo")).toBe(true);
    expect(verdict("a/**", "a/x")).toBe(true);
    expect(verdict("a/**", "a/x/y")).toBe(true);
    expect(verdict("a/**", "a", true)).toBeUndefined();
    expect(verdict("a/**/b", "a/b")).toBe(true);
    expect(verdict("a/**/b", "a/x/y/b")).toBe(true);
    expect(verdict("a/**/b", "a/xb")).toBeUndefined();
    expect(verdict("a/x**y", "a/x/y")).toBeUndefined();
    expect(verdict("a/x**y", "a/xzy")).toBe(true);
    expect(verdict("**", "a/b/c")).toBe(true);
  });

  it("treats ** right after the literal prefix as at a start, as git does", () => {
    // git strips the literal prefix "a" before wildmatch, so "**/b" then spans folders.
    expect(verdict("a**/b", "ax/y/b")).toBe(true);
    expect(verdict("a**/b", "a/b")).toBe(true);
  });

  it("never matches a pattern ending in a lone backslash", () => {
    expect(verdict("foo\\", "foo")).toBeUndefined();
    expect(verdict("foo\\", "foo\\")).toBeUndefined();
  });
});
