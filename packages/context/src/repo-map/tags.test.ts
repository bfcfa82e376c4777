import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { languageOf, loadLanguage, stripDirectives } from "./languages.js";
import { extractTags, type FileTags } from "./tags.js";

const FIXTURES = join(import.meta.dirname, "../../test/fixtures/repo-map");

async function tagsOf(file: string): Promise<FileTags> {
  const language = languageOf(file);
  if (!language) throw new Error(`no language for ${file}`);
  return extractTags(readFileSync(join(FIXTURES, file), "utf8"), await loadLanguage(language));
}

function defs(tags: FileTags): string[] {
  return tags.defs.map((d) => `${d.kind} ${d.name} ${d.line}`);
}

describe("tag extraction", { timeout: 30_000 }, () => {
  it("TypeScript: interfaces, types, enums, constants, classes, methods, functions", async () => {
    const tags = await tagsOf("shapes.ts");
    expect(defs(tags)).toEqual([
      "interface Shape 1",
      "method area 2",
      "type Point 5",
      "type Color 7",
      "constant DEFAULT_RADIUS 12",
      "class Circle 14",
      "method area 16",
      "function makeCircle 21",
    ]);
    expect(tags.defs.find((d) => d.name === "makeCircle")?.signature).toBe(
      "export function makeCircle(radius = DEFAULT_RADIUS): Circle {",
    );
    expect(Object.keys(tags.refs)).toEqual(expect.arrayContaining(["Shape", "Circle"]));
  });

  it("TSX: arrow components and imports as references", async () => {
    const tags = await tagsOf("main.tsx");
    expect(defs(tags)).toEqual(["function View 3", "function render 5"]);
    expect(tags.refs).toMatchObject({ Shape: 2, makeCircle: 2 });
  });

  it("JavaScript: classes, methods, functions, arrow functions, constants", async () => {
    expect(defs(await tagsOf("util.js"))).toEqual([
      "class Queue 1",
      "method push 2",
      "function drain 7",
      "function double 11",
      "constant LIMIT 13",
    ]);
  });

  it("Python: module constants, classes, methods, functions and calls", async () => {
    const tags = await tagsOf("geometry.py");
    expect(defs(tags)).toEqual([
      "constant MAX_SIDES 1",
      "class Polygon 4",
      "method __init__ 5",
      "method perimeter 8",
      "function square 12",
    ]);
    expect(tags.refs.Polygon).toBeGreaterThan(0);
  });

  it("Rust: constants, structs, traits, impl methods, functions", async () => {
    const tags = await tagsOf("lib.rs");
    expect(defs(tags)).toEqual([
      "constant ORIGIN 1",
      "class Point 3",
      "interface Area 7",
      "method new 12",
      "function distance 17",
    ]);
    expect(tags.refs.Point).toBeGreaterThan(0);
  });

  it("Go: constants, interfaces, struct types, methods, functions", async () => {
    const tags = await tagsOf("shapes.go");
    expect(defs(tags)).toEqual([
      "constant MaxSides 3",
      "interface Shape 5",
      "type Square 9",
      "method Area 13",
      "function NewSquare 17",
    ]);
    expect(tags.refs.Square).toBeGreaterThan(0);
  });

  it("a broken file yields what tree-sitter recovered, and binary noise yields nothing", async () => {
    const ts = await loadLanguage("typescript");
    const broken = extractTags("export function ok(): void {}\nclass {{{ ((( \n", ts);
    expect(broken.defs.map((d) => d.name)).toContain("ok");
    expect(extractTags("\u0000\u0001\u0002", ts).defs).toEqual([]);
  });

  it("strips the doc-comment directives web-tree-sitter does not know, and the doc captures", () => {
    const query = '((comment)* @doc . (x) @y (#strip! @doc "^//") (#select-adjacent! @doc @y))';
    expect(stripDirectives(query)).toBe("( (x) @y  )");
  });

  it("maps extensions to languages and leaves others out", () => {
    expect(
      ["a.ts", "b.mts", "c.tsx", "d.cjs", "e.pyi", "f.rs", "g.go", "h.md", "Makefile"].map(
        languageOf,
      ),
    ).toEqual([
      "typescript",
      "typescript",
      "tsx",
      "javascript",
      "python",
      "rust",
      "go",
      null,
      null,
    ]);
  });
});
