import { chmod, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFixtureRepo } from "@z-engine/testkit";
import { describe, expect, it } from "vitest";
import { listProjectFiles } from "./complete.js";

describe("@ completion's file list (issue 38: the git door)", () => {
  it("lists the project's files without starting a program its git config names", async () => {
    await using repo = await createFixtureRepo({ files: { "a.txt": "a\n", "src/b.ts": "b\n" } });
    const markers = await mkdtemp(join(tmpdir(), "zeng-complete-"));
    try {
      const evil = join(markers, "evil.sh");
      await writeFile(evil, `#!/bin/sh\ntouch "${markers}/ran-$1"\n`);
      await chmod(evil, 0o755);
      await repo.git("config", "core.fsmonitor", `${evil} fsmonitor`);
      await writeFile(repo.path("new.txt"), "n\n");
      const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: markers };
      const files = await listProjectFiles(repo.root, env);
      expect((await readdir(markers)).filter((n) => n.startsWith("ran-"))).toEqual([]);
      expect([...files].sort()).toEqual(["a.txt", "new.txt", "src/b.ts"]);
    } finally {
      await rm(markers, { recursive: true, force: true });
    }
  });
});
