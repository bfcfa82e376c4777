import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { build } from "esbuild";
import { afterEach, describe, expect, it } from "vitest";
import { deferBuiltins } from "../scripts/defer-builtins.mjs";

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

/**
 * A CommonJS bundle of an ES module (in a "type": "module" folder, as the engine's packages
 * are) that reports which of the deferred modules Node has loaded, before and after it uses
 * them through a named import and a namespace import.
 */
async function bundle(): Promise<string> {
  dir = await mkdtemp(join(tmpdir(), "zeng-defer-"));
  await writeFile(join(dir, "package.json"), '{ "type": "module" }');
  await writeFile(
    join(dir, "entry.js"),
    `import { spawnSync } from "node:child_process";
     import * as v8 from "node:v8";
     import { basename } from "node:path";
     const loaded = () => ["child_process", "v8"].filter((m) =>
       process.moduleLoadList.includes("NativeModule " + m));
     const before = loaded();
     const ran = spawnSync(process.execPath, ["-e", "process.stdout.write('ok')"]).stdout.toString();
     const afterSpawn = loaded();
     const heap = typeof v8.getHeapStatistics().total_heap_size;
     const keys = Object.keys(v8).includes("setFlagsFromString");
     const hasDefault = typeof v8.default?.getHeapStatistics;
     console.log(JSON.stringify({ before, ran, afterSpawn, after: loaded(), heap, keys, hasDefault,
       base: basename("/a/b") }));`,
  );
  const result = await build({
    entryPoints: [join(dir, "entry.js")],
    bundle: true,
    format: "cjs",
    platform: "node",
    target: "node20",
    write: false,
  });
  return result.outputFiles[0]?.text ?? "";
}

async function run(code: string): Promise<Record<string, unknown>> {
  const file = join(dir as string, "out.cjs");
  await writeFile(file, code);
  const { stdout } = await promisify(execFile)(process.execPath, [file]);
  return JSON.parse(stdout) as Record<string, unknown>;
}

describe("deferBuiltins", () => {
  it("loads the listed built-ins on first use, and they work as before", async () => {
    const code = await bundle();
    const plain = await run(code);
    expect(plain.before).toEqual(["child_process", "v8"]);
    const deferred = deferBuiltins(code, ["node:child_process", "node:v8"]);
    expect(deferred.count).toBe(2);
    const result = await run(deferred.code);
    expect(result.before).toEqual([]);
    expect(result.afterSpawn).toEqual(["child_process"]);
    expect(result.after).toEqual(["child_process", "v8"]);
    // The same values as without the stand-ins.
    const { before: _a, afterSpawn: _b, ...rest } = plain;
    const { before: _c, afterSpawn: _d, ...restDeferred } = result;
    expect(restDeferred).toEqual(rest);
    expect(result).toMatchObject({ ran: "ok", heap: "number", keys: true, base: "b" });
  });

  it("leaves modules it is not given alone", async () => {
    const code = await bundle();
    expect(deferBuiltins(code, ["node:https"])).toEqual({ code, count: 0 });
  });
});
