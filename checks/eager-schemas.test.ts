import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { eagerSchemas, eagerSchemasIn } from "./eager-schemas.js";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");

describe("schemas built at import", () => {
  it("none in this repository's packages and apps", () => {
    const found = eagerSchemas(repoRoot).map((e) => `${e.file}:${e.line} ${e.text}`);
    expect(found).toEqual([]);
  });
});

describe("eagerSchemasIn", () => {
  const lines = (text: string) => eagerSchemasIn("m.ts", text).map((e) => `${e.line} ${e.text}`);

  it("finds a builder call at the top level, once per outermost call", () => {
    const text = [
      `import { z } from "zod";`,
      `export const A = z.object({ a: z.string() });`,
      `const B = [z.string().min(1)];`,
      `class C { static s = z.number(); }`,
    ].join("\n");
    expect(lines(text)).toEqual(["2 z.object({ a: z.string() })", "3 z.string()", "4 z.number()"]);
  });

  it("finds a call of the module's own function that builds one", () => {
    const text = [
      `import { z as zod } from "zod";`,
      `const id = (brand: string) => zod.string().describe(brand);`,
      `function event(kind: string) { return zod.object({ kind: zod.literal(kind) }); }`,
      `export const SessionId = id("SessionId");`,
      `const Started = event("started");`,
    ].join("\n");
    expect(lines(text)).toEqual(['4 id("SessionId")', '5 event("started")']);
  });

  it("leaves what runs later: functions, lazy stand-ins, instance fields, types", () => {
    const text = [
      `import * as z from "zod";`,
      `import { lazily } from "@z-engine/protocol";`,
      `export const A = lazily(() => z.object({ a: z.string() }));`,
      `const b = () => z.string();`,
      `const id = (brand: string) => lazily(() => z.string().describe(brand));`,
      `export const SessionId = id("SessionId");`,
      `export function c() { return z.number(); }`,
      `class D { e = z.boolean(); method() { return z.string(); } }`,
      `export type A = z.infer<typeof A>;`,
    ].join("\n");
    expect(lines(text)).toEqual([]);
  });

  it("reads only modules that import zod's z as a value", () => {
    expect(lines(`import type { z } from "zod";\nconst z2 = z;`)).toEqual([]);
    expect(lines(`const z = { object: () => 1 };\nexport const A = z.object();`)).toEqual([]);
  });
});
