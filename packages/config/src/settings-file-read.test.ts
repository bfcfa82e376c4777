import { execFile } from "node:child_process";
import { mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MAX_SETTINGS_FILE_BYTES, readText } from "./layer-file.js";
import type { SettingsProblem } from "./problems.js";

// A project controls its settings files: a FIFO there held the session's open for ever
// (readFileSync blocks), and a link to /dev/zero read without end.
const exec = promisify(execFile);
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "zeng-settings-read-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("reading a settings file", { timeout: 10_000 }, () => {
  it("skips a FIFO and a device with a problem, without blocking", async () => {
    await exec("mkfifo", [join(dir, "settings.toml")]);
    await symlink("/dev/zero", join(dir, "linked.toml"));
    for (const name of ["settings.toml", "linked.toml"]) {
      const problems: SettingsProblem[] = [];
      expect(readText(join(dir, name), problems)).toBeUndefined();
      expect(problems[0]?.message).toContain("not a regular file");
    }
  });

  it("skips a file over the limit, reads a normal one, and says nothing of a missing one", async () => {
    await writeFile(join(dir, "big.toml"), "#".repeat(MAX_SETTINGS_FILE_BYTES + 1));
    await writeFile(join(dir, "ok.toml"), '[model]\nmain = "x"\n');
    const problems: SettingsProblem[] = [];
    expect(readText(join(dir, "big.toml"), problems)).toBeUndefined();
    expect(problems[0]?.message).toContain("over the");
    expect(readText(join(dir, "ok.toml"), problems)).toBe('[model]\nmain = "x"\n');
    expect(readText(join(dir, "missing.toml"), problems)).toBeUndefined();
    expect(problems).toHaveLength(1);
  });
});
