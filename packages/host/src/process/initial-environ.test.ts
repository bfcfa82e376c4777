import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { eraseInitialEnvironment } from "./initial-environ.js";

const run = promisify(execFile);
const KEY = "sk-initial-environ-0123456789abcdef";
const module = fileURLToPath(new URL("../../dist/process/initial-environ.js", import.meta.url));

/**
 * A child that takes its key out with `eraseInitialEnvironment` (or not), then starts a
 * grandchild that reads the child's `/proc/<ppid>/environ` and base64-encodes it, as a
 * hostile `npm test` walking its parents would.
 */
const script = (erase: boolean) => `
  const { eraseInitialEnvironment } = await import(${JSON.stringify(module)});
  const { execFileSync } = await import("node:child_process");
  const { readFileSync } = await import("node:fs");
  const kept = process.env.ZENG_TEST_API_KEY;
  const result = ${erase} ? eraseInitialEnvironment(["ZENG_TEST_API_KEY"], process.env) : null;
  const seen = execFileSync("sh", ["-c", 'base64 -w0 < /proc/$PPID/environ'], {
    env: { PATH: process.env.PATH },
  }).toString();
  console.log(JSON.stringify({
    result,
    kept,
    parentEnviron: Buffer.from(seen, "base64").toString("latin1"),
    ownEnviron: readFileSync("/proc/self/environ", "latin1"),
    env: process.env.ZENG_TEST_API_KEY ?? null,
    other: process.env.ZENG_TEST_OTHER ?? null,
  }));
`;

async function child(erase: boolean) {
  const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script(erase)], {
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      ZENG_TEST_API_KEY: KEY,
      ZENG_TEST_OTHER: "x",
    },
  });
  return JSON.parse(stdout) as {
    result: { erased: string[]; unavailable?: string } | null;
    kept: string;
    parentEnviron: string;
    ownEnviron: string;
    env: string | null;
    other: string | null;
  };
}

describe("eraseInitialEnvironment", () => {
  it("without it, a grandchild reads the key in its parent's /proc/<pid>/environ", async () => {
    const seen = await child(false);
    expect(seen.parentEnviron).toContain(`ZENG_TEST_API_KEY=${KEY}`);
  });

  it("takes the key out of the process's environment and of /proc/<pid>/environ; the rest stays", async () => {
    const seen = await child(true);
    expect(seen.result).toEqual({ erased: ["ZENG_TEST_API_KEY"] });
    expect(seen.kept).toBe(KEY);
    expect(seen.env).toBeNull();
    for (const text of [seen.parentEnviron, seen.ownEnviron]) {
      expect(text).not.toContain(KEY);
      expect(text).not.toContain("ZENG_TEST_API_KEY");
      expect(text).toContain("ZENG_TEST_OTHER=x");
    }
    expect(seen.other).toBe("x");
  });

  it("elsewhere only deletes the names, and says why", () => {
    const env: Record<string, string | undefined> = { A_API_KEY: "v", B: "w" };
    expect(eraseInitialEnvironment(["A_API_KEY"], env, "darwin")).toEqual({
      erased: [],
      unavailable: "no /proc/self/mem on darwin",
    });
    expect(env).toEqual({ B: "w" });
  });
});
