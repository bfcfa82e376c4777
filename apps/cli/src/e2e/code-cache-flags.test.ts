import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { reply } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import {
  headlessBypass,
  main,
  onWasmCompile,
  runPreloaded,
  type World,
  world,
} from "./cli.test.helpers.js";

let w: World | undefined;
afterEach(async () => {
  await w?.dispose();
  w = undefined;
});

/** The code cache files of the world's data folder, each with its modification time. */
async function cacheFiles(home: string): Promise<string[]> {
  const dir = join(home, "data", "code-cache");
  const names = (await readdir(dir)).filter((n) => n.endsWith(".bin"));
  return Promise.all(names.map(async (n) => `${n} ${(await stat(join(dir, n))).mtimeMs}`));
}

/**
 * A preloaded module that lists, in order, each V8 flag zeng sets and each WebAssembly
 * compile (the first of each kind is enough: `wasm`).
 */
const FLAG_WATCHER = `
const { writeFileSync } = require("node:fs");
const v8 = require("node:v8");
const events = [];
const setFlags = v8.setFlagsFromString;
v8.setFlagsFromString = (flag) => {
  events.push("flag " + flag);
  return setFlags(flag);
};
${onWasmCompile('events.push("wasm")')}
process.on("exit", () => writeFileSync(process.env.ZENG_TEST_REPORT, JSON.stringify(events)));
`;

/**
 * A preloaded module that lists, in order, each shell spawned, each code cache written and
 * the WebAssembly compiles.
 */
const CACHE_WATCHER = `
const fs = require("node:fs");
const childProcess = require("node:child_process");
const events = [];
const rename = fs.renameSync;
fs.renameSync = (from, to) => {
  if (String(to).endsWith(".bin")) events.push("cache");
  return rename(from, to);
};
const spawn = childProcess.spawn;
childProcess.spawn = function (command, ...rest) {
  if (/(^|\\/)(ba)?sh$/.test(String(command))) events.push("shell");
  return spawn.call(this, command, ...rest);
};
${onWasmCompile('events.push("wasm")')}
process.on("exit", () => fs.writeFileSync(process.env.ZENG_TEST_REPORT, JSON.stringify(events)));
`;

/** `zeng -p check`, printing JSON, in bypass mode. */
const CHECK = headlessBypass("check");

describe("zeng -p's V8 flags and the code cache (src/memory-tuning.ts)", () => {
  it("changes V8's flags before the first WebAssembly compile, with or without a cache to write", async () => {
    w = await world({ format: "anthropic" });
    // A command the gate parses with tree-sitter (not plain words).
    const command = 'git status --short && echo "$(git rev-parse --is-inside-work-tree)"';
    // Run 1 writes the cache, with a model slower than the engine's loading of the shell
    // parser (100 ms after the request; each event waits 40 ms). Run 2 uses the cache: the
    // gate parses the command of an answer that comes at once, before any second request.
    for (const delayMs of [40, 0]) {
      w.provider.push(
        main({ ...reply.toolCall("Bash", { command }), delayMs }),
        main(reply.text("done")),
      );
      const { run, report } = await runPreloaded(w, FLAG_WATCHER, CHECK);
      expect(run.code, run.stderr).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({ outcome: "completed", text: "done" });
      const seen = JSON.parse(report) as string[];
      const flagged = seen.indexOf("flag --liftoff-only");
      expect(seen, `run with delay ${delayMs}`).toContain("wasm");
      expect(flagged, `run with delay ${delayMs}: ${seen.join(", ")}`).toBeGreaterThanOrEqual(0);
      expect(flagged).toBeLessThan(seen.indexOf("wasm"));
    }
    expect(await cacheFiles(w.home)).toHaveLength(1);
  });

  it("writes the code cache after round 1's tool call started, when the model answered at once", async () => {
    w = await world({ format: "anthropic" });
    w.provider.push(
      main(reply.toolCall("Bash", { command: "git status --short" })),
      main(reply.text("done")),
    );
    const { run, report } = await runPreloaded(w, CACHE_WATCHER, CHECK);
    expect(run.code, run.stderr).toBe(0);
    const seen = JSON.parse(report) as string[];
    expect(seen.filter((e) => e === "cache")).toHaveLength(1);
    expect(seen.indexOf("shell"), seen.join(", ")).toBeGreaterThanOrEqual(0);
    // The cache waits for the tool call's shell, unless the engine's first WebAssembly compile
    // (the shell parser, loaded 100 ms after the first request) comes first, as on a loaded
    // machine where the answer arrives later: then the cache is written just before it.
    const cache = seen.indexOf("cache");
    const beforeCompile = seen[cache + 1] === "wasm" && !seen.slice(0, cache).includes("wasm");
    if (!beforeCompile) expect(seen.indexOf("shell"), seen.join(", ")).toBeLessThan(cache);
    expect(await cacheFiles(w.home)).toHaveLength(1);
  });

  it("writes the code cache once: later runs, which change V8's flags after their first request, still use it", async () => {
    w = await world({ format: "anthropic" });
    const written: string[][] = [];
    for (let i = 0; i < 3; i++) {
      w.provider.push(
        main(reply.toolCall("Bash", { command: "git status --short" })),
        main(reply.text(`done ${i}`)),
      );
      const run = await w.run(CHECK);
      expect(run.code, run.stderr).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({ outcome: "completed", text: `done ${i}` });
      written.push(await cacheFiles(w.home));
    }
    // One file, never rewritten: a run whose cache V8 rejected would write it again.
    expect(written[0]).toHaveLength(1);
    expect(written[1]).toEqual(written[0]);
    expect(written[2]).toEqual(written[0]);
  });
});
