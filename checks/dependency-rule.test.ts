import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import {
  checkDependencyRule,
  type DependencyTable,
  formatViolations,
  importsOf,
} from "./dependency-rule.js";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");

describe("the dependency rule on this repository", () => {
  it("holds", () => {
    const violations = checkDependencyRule(repoRoot);
    expect(formatViolations(violations)).toBe("");
  });
});

describe("importsOf", () => {
  it("finds static, dynamic, type-only and re-export imports", () => {
    const text = [
      `import { a } from "@z-engine/a";`,
      `import type { B } from "@z-engine/b";`,
      `export { c } from "@z-engine/c";`,
      `export type { D } from "@z-engine/d";`,
      `const e = await import("@z-engine/e");`,
      `import "@z-engine/f";`,
    ].join("\n");
    expect(importsOf(text)).toEqual([
      "@z-engine/a",
      "@z-engine/b",
      "@z-engine/c",
      "@z-engine/d",
      "@z-engine/e",
      "@z-engine/f",
    ]);
  });
});

describe("planted violations", () => {
  let root: string;

  const pkg = (
    group: string,
    name: string,
    deps: Record<string, string> = {},
    dev: Record<string, string> = {},
  ) => {
    const dir = join(root, group, name);
    mkdirSync(join(dir, "src"), { recursive: true });
    writeFileSync(
      join(dir, "package.json"),
      JSON.stringify({ name: `@z-engine/${name}`, dependencies: deps, devDependencies: dev }),
    );
    writeFileSync(join(dir, "src", "index.ts"), "export {};\n");
  };
  const file = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };

  const setup = () => {
    root = mkdtempSync(join(tmpdir(), "zeng-deps-"));
    pkg("packages", "protocol");
    pkg("packages", "testkit", { "@z-engine/protocol": "workspace:*" });
    pkg("packages", "store", { "@z-engine/protocol": "workspace:*" });
    pkg(
      "packages",
      "engine",
      { "@z-engine/protocol": "workspace:*", "@z-engine/store": "workspace:*" },
      { "@z-engine/testkit": "workspace:*" },
    );
  };
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("accepts a clean tree, and testkit in a package's tests", () => {
    setup();
    file("packages/store/src/log.ts", `import type { Message } from "@z-engine/protocol";\n`);
    file(
      "packages/engine/src/run.test.ts",
      `import { createFixtureRepo } from "@z-engine/testkit";\n`,
    );
    expect(checkDependencyRule(root)).toEqual([]);
  });

  it("catches testkit in the store's tests (testkit builds on the store)", () => {
    setup();
    file(
      "packages/store/src/log.test.ts",
      `import { createMemoryStore } from "@z-engine/testkit";\n`,
    );
    expect(formatViolations(checkDependencyRule(root))).toContain(
      "packages/store/src/log.test.ts: [edge] @z-engine/store -> @z-engine/testkit",
    );
  });

  it("catches an import from engine into protocol, naming the file and the edge", () => {
    setup();
    file("packages/protocol/src/bad.ts", `import type { Engine } from "@z-engine/engine";\n`);
    const text = formatViolations(checkDependencyRule(root));
    expect(text).toContain("packages/protocol/src/bad.ts");
    expect(text).toContain("@z-engine/protocol -> @z-engine/engine is not allowed");
  });

  it("catches a dynamic import and a package.json edge", () => {
    setup();
    file("packages/store/src/lazy.ts", `export const load = () => import("@z-engine/engine");\n`);
    pkg("packages", "llm", { "@z-engine/store": "workspace:*" });
    const text = formatViolations(checkDependencyRule(root));
    expect(text).toContain(
      "packages/store/src/lazy.ts: [edge] @z-engine/store -> @z-engine/engine",
    );
    expect(text).toContain(
      "packages/llm/package.json: [edge] dependencies: @z-engine/llm -> @z-engine/store",
    );
  });

  it("lets the worker use store-postgres in its tests only", () => {
    setup();
    pkg("packages", "store-postgres", { "@z-engine/store": "workspace:*" });
    pkg(
      "packages",
      "worker",
      { "@z-engine/store": "workspace:*" },
      { "@z-engine/store-postgres": "workspace:*" },
    );
    file(
      "packages/worker/src/cluster.test.ts",
      `import { createPostgresStore } from "@z-engine/store-postgres";\n`,
    );
    expect(checkDependencyRule(root)).toEqual([]);
    file(
      "packages/worker/src/worker.ts",
      `import { createPostgresStore } from "@z-engine/store-postgres";\n`,
    );
    pkg("packages", "engine", { "@z-engine/store-postgres": "workspace:*" });
    const text = formatViolations(checkDependencyRule(root));
    expect(text).toContain(
      "packages/worker/src/worker.ts: [edge] @z-engine/worker -> @z-engine/store-postgres",
    );
    expect(text).toContain(
      "packages/engine/package.json: [edge] dependencies: @z-engine/engine -> @z-engine/store-postgres",
    );
  });

  it("catches testkit outside tests and in protocol", () => {
    setup();
    file(
      "packages/store/src/uses-testkit.ts",
      `import { EventRecorder } from "@z-engine/testkit";\n`,
    );
    pkg("packages", "protocol", {}, { "@z-engine/testkit": "workspace:*" });
    const text = formatViolations(checkDependencyRule(root));
    expect(text).toContain(
      "packages/store/src/uses-testkit.ts: [edge] @z-engine/store -> @z-engine/testkit",
    );
    expect(text).toContain(
      "packages/protocol/package.json: [edge] devDependencies: @z-engine/protocol -> @z-engine/testkit",
    );
  });

  it("catches a cycle", () => {
    setup();
    file("packages/store/src/cycle.ts", `import { x } from "@z-engine/engine";\n`);
    const violations = checkDependencyRule(root);
    expect(formatViolations(violations)).toContain(
      "[cycle] dependency cycle: @z-engine/engine -> @z-engine/store -> @z-engine/engine",
    );
  });

  it("catches a cycle even under a table that allows both edges", () => {
    setup();
    file("packages/store/src/cycle.ts", `import { x } from "@z-engine/engine";\n`);
    const permissive: DependencyTable = {
      protocol: [],
      testkit: ["protocol"],
      store: ["protocol", "engine"],
      engine: ["protocol", "store"],
    };
    const violations = checkDependencyRule(root, permissive);
    expect(violations.map((v) => v.kind)).toEqual(["cycle"]);
  });

  it("catches an import cycle between the files of a package, naming the files", () => {
    setup();
    file("packages/engine/src/a.ts", `import { b } from "./b.js";\nexport const a = 1;\n`);
    file("packages/engine/src/b.ts", `import { c } from "./nested/c.js";\nexport const b = 1;\n`);
    file(
      "packages/engine/src/nested/c.ts",
      `import type { A } from "../a.js";\nexport const c = 1;\n`,
    );
    file("packages/engine/src/d.ts", `import { a } from "./a.js";\n`);
    const violations = checkDependencyRule(root);
    expect(violations.map((v) => v.kind)).toEqual(["file-cycle"]);
    expect(formatViolations(violations)).toBe(
      "packages/engine/src/a.ts: [file-cycle] import cycle inside @z-engine/engine: " +
        "packages/engine/src/a.ts -> packages/engine/src/b.ts -> packages/engine/src/nested/c.ts -> packages/engine/src/a.ts",
    );
  });

  it("accepts files that import each other one way only", () => {
    setup();
    file("packages/engine/src/a.ts", `import { b } from "./b.js";\nimport { c } from "./c.js";\n`);
    file("packages/engine/src/b.ts", `import { c } from "./c.js";\nexport const b = 1;\n`);
    file("packages/engine/src/c.ts", `export const c = 1;\n`);
    expect(checkDependencyRule(root)).toEqual([]);
  });

  it("catches deep imports, by package subpath and by relative path", () => {
    setup();
    file(
      "packages/engine/src/deep.ts",
      `import { append } from "@z-engine/store/src/append.js";\n`,
    );
    file(
      "packages/engine/src/relative.ts",
      `import { append } from "../../store/src/append.js";\n`,
    );
    const text = formatViolations(checkDependencyRule(root));
    expect(text).toContain(
      "packages/engine/src/deep.ts: [deep-import] imports @z-engine/store/src/append.js",
    );
    expect(text).toContain(
      "packages/engine/src/relative.ts: [deep-import] imports ../../store/src/append.js",
    );
  });
});
