import { mkdir, mkdtemp, realpath, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PROTECTED_PATHS } from "@z-engine/protocol";
import { buildSandboxProfile } from "./profile.js";

let dir: string;
beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), "zeng-profile-")));
  for (const sub of [
    "project",
    "extra",
    "home/.npm",
    "home/.cargo/registry",
    "home/Library/Caches",
    "tmp",
  ]) {
    await mkdir(join(dir, sub), { recursive: true });
  }
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("buildSandboxProfile", () => {
  it("makes the root, extra folders, tmp and existing caches writable, and protects settings", () => {
    const profile = buildSandboxProfile({
      root: join(dir, "project"),
      additionalDirectories: [join(dir, "extra")],
      extraWritable: [join(dir, "tmp")],
      homeDir: join(dir, "home"),
      tmpDir: join(dir, "tmp"),
      platform: "linux",
    });
    expect(profile.root).toBe(join(dir, "project"));
    expect(profile.writable).toEqual([
      join(dir, "project"),
      join(dir, "extra"),
      join(dir, "tmp"),
      join(dir, "home/.cargo/registry"),
      join(dir, "home/.npm"),
    ]);
    expect(profile.readOnlyInside).toHaveLength(PROTECTED_PATHS.length * 2);
    expect(profile.readOnlyInside).toContain(join(dir, "project/.git"));
    expect(profile.readOnlyInside).toContain(join(dir, "extra/.mcp.json"));
    expect(profile.network).toBe(false);
  });

  it("keeps the worktree agents' repositories and the project's worktrees read-only", () => {
    const data = join(dir, "tmp", "data", "worktrees");
    const profile = buildSandboxProfile({
      root: join(dir, "project"),
      homeDir: join(dir, "home"),
      tmpDir: join(dir, "tmp"),
      readOnly: [data],
    });
    expect(profile.readOnlyInside).toContain(data);
    expect(profile.readOnlyInside).toContain(join(dir, "project/.z-engine/worktrees"));
  });

  it("adds ~/Library/Caches on macOS and resolves symlinked roots", async () => {
    await symlink(join(dir, "project"), join(dir, "link"));
    const profile = buildSandboxProfile({
      root: join(dir, "link"),
      homeDir: join(dir, "home"),
      tmpDir: join(dir, "tmp"),
      allowNetwork: true,
      platform: "darwin",
    });
    expect(profile.root).toBe(join(dir, "project"));
    expect(profile.writable).toContain(join(dir, "home/Library/Caches"));
    expect(profile.network).toBe(true);
  });
});
