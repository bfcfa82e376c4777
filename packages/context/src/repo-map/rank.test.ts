import { describe, expect, it } from "vitest";
import { rankDefinitions } from "./rank.js";
import { mapTokens, renderMap } from "./render.js";
import { renderRepoMap } from "./repo-map.js";
import type { Definition, FileTags } from "./tags.js";

function def(name: string, line = 1, kind: Definition["kind"] = "function"): Definition {
  return { name, kind, line, signature: `export function ${name}(): void {` };
}

/** A project: `core.ts` defines a widely used function and an unused one; the rest use it. */
function project(users = 6): Map<string, FileTags> {
  const files = new Map<string, FileTags>();
  files.set("src/core.ts", { defs: [def("parseConfig", 1), def("unusedHelper", 9)], refs: {} });
  files.set("src/lonely.ts", { defs: [def("lonelyThing", 1)], refs: {} });
  for (let i = 0; i < users; i++)
    files.set(`src/user${i}.ts`, { defs: [def(`userFeature${i}`, 3)], refs: { parseConfig: 2 } });
  return files;
}

describe("ranking", () => {
  it("a function referenced from many files outranks an unreferenced one", () => {
    const ranked = rankDefinitions(project());
    const names = ranked.map((r) => r.def.name);
    expect(names[0]).toBe("parseConfig");
    expect(names.indexOf("parseConfig")).toBeLessThan(names.indexOf("unusedHelper"));
    expect(names.indexOf("parseConfig")).toBeLessThan(names.indexOf("lonelyThing"));
  });

  it("files the session touched rise, and so do names in the prompt", () => {
    const plain = rankDefinitions(project()).map((r) => r.def.name);
    const touched = rankDefinitions(project(), { files: ["src/lonely.ts"] }).map((r) => r.def.name);
    expect(touched.indexOf("lonelyThing")).toBeLessThan(plain.indexOf("lonelyThing"));
    expect(touched.indexOf("lonelyThing")).toBeLessThan(touched.indexOf("userFeature0"));
    const asked = rankDefinitions(project(), { text: "why does userFeature3 fail?" });
    expect(asked[0]?.def.name).toBe("userFeature3");
  });

  it("gives the same order for the same input, whatever the map's insertion order", () => {
    const files = project();
    const reversed = new Map([...files].reverse());
    expect(rankDefinitions(reversed)).toEqual(rankDefinitions(files));
  });

  it("copes with an empty project and with self-references", () => {
    expect(rankDefinitions(new Map())).toEqual([]);
    const self = new Map<string, FileTags>([["a.ts", { defs: [def("a")], refs: { a: 3 } }]]);
    expect(rankDefinitions(self).map((r) => r.def.name)).toEqual(["a"]);
  });
});

describe("rendering", () => {
  it("respects the token budget, whatever it is", () => {
    const files = project(200);
    const ranked = rankDefinitions(files);
    for (const budget of [40, 100, 333, 1000, 5000]) {
      const map = renderMap(ranked, budget);
      expect(map.tokens).toBeLessThanOrEqual(budget);
      expect(mapTokens(map.text)).toBe(map.tokens);
    }
    const big = renderMap(ranked, 100_000);
    expect(big.definitions).toBe(ranked.length);
  });

  it("fills the budget: one more definition would not fit", () => {
    const ranked = rankDefinitions(project(200));
    const map = renderMap(ranked, 500);
    expect(map.definitions).toBeLessThan(ranked.length);
    expect(renderMap(ranked.slice(0, map.definitions + 1), 100_000).tokens).toBeGreaterThan(500);
  });

  it("lists files with their signatures by line, the most important file first", () => {
    const map = renderRepoMap(project(3), { tokens: 1000 });
    const lines = map.text.split("\n");
    expect(lines[2]).toBe("src/core.ts:");
    expect(lines[3]).toBe("  1: export function parseConfig(): void {");
    expect(map.files).toBe(5);
  });

  it("is empty when the budget is 0 or too small for one definition", () => {
    expect(renderRepoMap(project(), { tokens: 0 }).text).toBe("");
    expect(renderRepoMap(project(), { tokens: 5 })).toEqual({
      text: "",
      tokens: 0,
      files: 0,
      definitions: 0,
    });
  });
});
