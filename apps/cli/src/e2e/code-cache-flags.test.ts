import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { reply } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { main, type World, world } from "./cli.test.helpers.js";

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

describe("zeng -p's V8 flags and the code cache (src/memory-tuning.ts)", () => {
  it("writes the code cache once: later runs, which change V8's flags after their first request, still use it", async () => {
    w = await world({ format: "anthropic" });
    const written: string[][] = [];
    for (let i = 0; i < 3; i++) {
      w.provider.push(
        main(reply.toolCall("Bash", { command: "git status --short" })),
        main(reply.text(`done ${i}`)),
      );
      const run = await w.run([
        "-p",
        "check",
        "--output-format",
        "json",
        "--permission-mode",
        "bypass",
      ]);
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
