import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import {
  checkFolderOrder,
  ENGINE_FOLDER_ORDER,
  ENGINE_UPWARD_ALLOWED,
  FOLDER_CYCLE_EXCEPTIONS,
  folderCycles,
  ROOT_FOLDER,
} from "./folder-cycles.js";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const engineSrc = join(repoRoot, "packages", "engine", "src");

describe("the engine's folders", () => {
  const report = checkFolderOrder(engineSrc, ENGINE_FOLDER_ORDER, ENGINE_UPWARD_ALLOWED);

  it("are all in the order", () => {
    expect(report.unorderedFolders).toEqual([]);
  });

  it("import only folders below them, outside the listed upward imports", () => {
    expect(report.upward).toEqual([]);
  });

  it("list no upward import that is gone", () => {
    expect(report.staleAllowed).toEqual([]);
  });

  it("form no cycle", () => {
    expect(folderCycles(engineSrc)).toEqual([]);
  });

  it("are in the order the engine's README gives", () => {
    const readme = readFileSync(join(repoRoot, "packages", "engine", "README.md"), "utf8");
    const section = readme.split("### Folders")[1]?.split("\n\n")[2] ?? "";
    const named = [...section.matchAll(/`([^`]+)`|the root files/g)]
      .map((m) => m[1] ?? ROOT_FOLDER)
      .filter((name) => !name.includes("."));
    expect(named).toEqual(ENGINE_FOLDER_ORDER);
  });
});

describe("folder cycles in the other packages", () => {
  const packageDirs = ["packages", "apps"].flatMap((group) =>
    readdirSync(join(repoRoot, group))
      .map((name) => `${group}/${name}`)
      .filter((dir) => dir !== "packages/engine" && existsSync(join(repoRoot, dir, "src"))),
  );

  it("appear only in the listed packages, and every listed one still has one", () => {
    const withCycles = packageDirs.filter(
      (dir) => folderCycles(join(repoRoot, dir, "src")).length > 0,
    );
    expect(withCycles.sort()).toEqual([...FOLDER_CYCLE_EXCEPTIONS].sort());
  });
});

describe("planted folder imports", () => {
  let src: string;
  const file = (path: string, text: string) => {
    mkdirSync(dirname(join(src, path)), { recursive: true });
    writeFileSync(join(src, path), text);
  };
  const setup = () => {
    src = mkdtempSync(join(tmpdir(), "zeng-folders-"));
    file("index.ts", `export { b } from "./high/b.js";\n`);
    file("low/a.ts", "export const a = 1;\n");
    file("high/b.ts", `import { a } from "../low/a.js";\nexport const b = a;\n`);
    file("low/a.test.ts", `import { b } from "../high/b.js";\nvoid b;\n`);
  };
  const order = ["low", "high", "(root)"];
  afterEach(() => rmSync(src, { recursive: true, force: true }));

  it("accept imports that go down, and tests that go up", () => {
    setup();
    expect(checkFolderOrder(src, order, [])).toEqual({
      upward: [],
      staleAllowed: [],
      unorderedFolders: [],
    });
    expect(folderCycles(src)).toEqual([]);
  });

  it("fail on a made-up upward import, type-only too, and on the cycle it makes", () => {
    setup();
    file("low/c.ts", `import type { b } from "../high/b.js";\nexport type C = typeof b;\n`);
    expect(checkFolderOrder(src, order, []).upward).toEqual([
      "low/c.ts -> high/b.ts (low -> high)",
    ]);
    expect(folderCycles(src)).toEqual([["high", "low"]]);
    expect(checkFolderOrder(src, order, ["low/c.ts -> high/b.ts"]).upward).toEqual([]);
  });

  it("fail on a listed upward import that is gone, and on a folder the order lacks", () => {
    setup();
    file("extra/d.ts", "export const d = 1;\n");
    expect(checkFolderOrder(src, order, ["low/c.ts -> high/b.ts"])).toEqual({
      upward: [],
      staleAllowed: ["low/c.ts -> high/b.ts"],
      unorderedFolders: ["extra"],
    });
  });
});
