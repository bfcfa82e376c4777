import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runInNewContext } from "node:vm";
import { build } from "esbuild";
import { afterEach, describe, expect, it } from "vitest";
import { dropRedundantNames } from "../scripts/drop-redundant-names.mjs";

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

/** Two modules whose names collide (esbuild renames one copy), bundled with keepNames. */
async function bundle(): Promise<string> {
  dir = await mkdtemp(join(tmpdir(), "zeng-names-"));
  const module = (tag: string) => `
    export function helper() { return "${tag}"; }
    export class Failure extends Error {}
    export class Plain {}
    export const arrow = () => 1;
    export function outer() { function inner() {} return inner; }
    export default function () {}
  `;
  await writeFile(join(dir, "a.js"), module("a"));
  await writeFile(join(dir, "b.js"), module("b"));
  await writeFile(
    join(dir, "entry.js"),
    `import * as a from "./a.js"; import * as b from "./b.js"; import da from "./a.js";
     import db from "./b.js";
     const all = [a.helper, a.Failure, a.Plain, a.arrow, a.outer(), b.helper, b.Failure,
       b.Plain, b.arrow, b.outer(), da, db];
     module.exports = all.map((f) => f.name);`,
  );
  const result = await build({
    entryPoints: [join(dir, "entry.js")],
    bundle: true,
    format: "cjs",
    platform: "node",
    target: "node20",
    keepNames: true,
    write: false,
  });
  return result.outputFiles[0]?.text ?? "";
}

const namesOf = (code: string): string[] => {
  const module = { exports: [] as string[] };
  runInNewContext(code, { module, exports: module.exports });
  return module.exports;
};

describe("dropRedundantNames", () => {
  it("drops calls that set the name a declaration has, and every name stays as in the source", async () => {
    const code = await bundle();
    const dropped = dropRedundantNames(code);
    expect(code).toMatch(/__name\(helper, "helper"\)/);
    expect(dropped).not.toMatch(/__name\(helper, "helper"\)/);
    const count = (text: string, what: string) => text.split(what).length - 1;
    expect(count(code, '__name(this, "Plain")')).toBe(2);
    // The renamed copies (helper2, Plain2) keep their calls.
    expect(count(dropped, '__name(this, "Plain")')).toBe(1);
    expect(dropped).toMatch(/var Plain2 = class \{\n\s*static \{\n\s*__name\(this, "Plain"\)/);
    expect(dropped).toMatch(/__name\(helper2, "helper"\)/);
    expect(dropped.length).toBeLessThan(code.length);
    const names = ["helper", "Failure", "Plain", "arrow", "inner"];
    const expected = [...names, ...names, "default", "default"];
    expect(namesOf(code)).toEqual(expected);
    expect(namesOf(dropped)).toEqual(expected);
  });

  it("refuses a bundle with a static name member, whose name the call would override", () => {
    expect(() => dropRedundantNames("class C {\n  static get name() { return 1; }\n}\n")).toThrow(
      /static name/,
    );
  });
});
