import { mkdtemp, readdir, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  loadMapSnapshot,
  mapPaths,
  mapSnapshotOf,
  saveMapSnapshot,
  withoutFiles,
} from "./map-snapshot.js";
import { rankDefinitions } from "./rank.js";
import { renderMap } from "./render.js";
import type { FileTags } from "./tags.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "map-snapshot-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function tags(def: string, refs: string[]): FileTags {
  return {
    defs: [{ name: def, kind: "function", line: 1, signature: `export function ${def}() {` }],
    refs: Object.fromEntries(refs.map((r) => [r, 1])),
  };
}

const files = new Map<string, FileTags>([
  ["src/a.ts", tags("alpha", ["beta"])],
  ["src/b.ts", tags("beta", ["alpha"])],
  ["src/c.ts", tags("gamma", ["alpha", "beta"])],
]);
const map = renderMap(rankDefinitions(files), 1000);

describe("the map snapshot", () => {
  it("round-trips through a 0600 file, naming the files the map shows", async () => {
    const file = join(dir, "sub", "p.map.json");
    const snapshot = mapSnapshotOf("/project", 1000, 1234, map);
    expect(snapshot.paths).toEqual(mapPaths(map.text));
    expect([...snapshot.paths].sort()).toEqual(["src/a.ts", "src/b.ts", "src/c.ts"]);
    expect(await saveMapSnapshot(file, snapshot)).toBeNull();
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readdir(join(dir, "sub"))).toEqual(["p.map.json"]);
    expect(await loadMapSnapshot(file)).toEqual(snapshot);
  });

  it("drops the sections of files and measures what is left", () => {
    const left = withoutFiles(map, new Set(["src/b.ts"]));
    expect(mapPaths(left.text).sort()).toEqual(["src/a.ts", "src/c.ts"]);
    expect(left).toMatchObject({ files: 2, definitions: 2 });
    expect(left.text).not.toContain("beta");
    expect(left.tokens).toBeLessThan(map.tokens);
    expect(withoutFiles(map, new Set(mapPaths(map.text))).text).toBe("");
  });

  it("reads a missing, damaged or foreign file as no snapshot", async () => {
    const file = join(dir, "p.map.json");
    expect(await loadMapSnapshot(file)).toBeNull();
    for (const bad of [
      "{not json",
      "null",
      JSON.stringify({ v: 99, root: "/p", budget: 1, builtAt: 1, map, paths: [] }),
      JSON.stringify({
        v: 1,
        root: "/p",
        budget: 1000,
        builtAt: 1,
        map: { text: "hi" },
        paths: [],
      }),
      // The list does not name the map's files.
      JSON.stringify({ v: 1, root: "/p", budget: 1000, builtAt: 1, map, paths: ["src/a.ts"] }),
    ]) {
      await writeFile(file, bad);
      expect(await loadMapSnapshot(file)).toBeNull();
    }
  });

  it("reports a folder it cannot write to", async () => {
    const blocker = join(dir, "blocker");
    await writeFile(blocker, "");
    const problem = await saveMapSnapshot(
      join(blocker, "p.map.json"),
      mapSnapshotOf("/p", 1, 1, map),
    );
    expect(problem).toMatch(/could not be written/);
  });
});
