import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import type { SandboxProfile } from "./profile.js";
import { SeatbeltSandbox, seatbeltProfileText } from "./seatbelt.js";

// Goldens are reviewed by hand: regenerate by printing seatbeltProfileText(profile) and
// diffing against the file, never by copying the output over blindly.
const golden = (name: string) => readFile(new URL(`./fixtures/${name}`, import.meta.url), "utf8");

const offline: SandboxProfile = {
  root: "/Users/dev/project",
  writable: ["/Users/dev/project", "/private/tmp", "/Users/dev/.npm", "/Users/dev/Library/Caches"],
  readOnlyInside: [
    "/Users/dev/project/.git",
    "/Users/dev/project/.z-engine/settings.toml",
    "/Users/dev/project/.mcp.json",
  ],
  network: false,
};

describe("seatbeltProfileText (runs on every platform; executing it needs a Mac)", () => {
  it("matches the golden profile with the network off", async () => {
    expect(seatbeltProfileText(offline)).toBe(await golden("seatbelt-offline.sb"));
  });

  it("matches the golden profile with the network on", async () => {
    expect(seatbeltProfileText({ ...offline, network: true })).toBe(
      await golden("seatbelt-online.sb"),
    );
  });

  it("escapes quotes and backslashes in hostile paths, so a path cannot add rules", async () => {
    const hostile: SandboxProfile = {
      root: '/x/a") (allow file-write* (subpath "/',
      writable: ['/x/a") (allow file-write* (subpath "/', "/x/back\\slash"],
      readOnlyInside: [],
      network: true,
    };
    expect(seatbeltProfileText(hostile)).toBe(await golden("seatbelt-hostile.sb"));
  });

  it("wraps the command in sandbox-exec with the profile inline", () => {
    const wrapped = new SeatbeltSandbox().wrap(
      { program: "bash", args: ["-c", "make"], cwd: "/Users/dev/project" },
      offline,
    );
    expect(wrapped.program).toBe("/usr/bin/sandbox-exec");
    expect(wrapped.args).toEqual(["-p", seatbeltProfileText(offline), "bash", "-c", "make"]);
  });
});
