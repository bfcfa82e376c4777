import { link, mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { PermissionMode } from "@z-engine/protocol";
import type { ToolCtx } from "../ctx.js";
import type { Tool } from "../tool.js";
import { OTHER_HARD_LINKS } from "../file-target.js";
import { runTool } from "../run-tool.js";
import { testCtx, textOf } from "../test-support/ctx.js";
import { gateDecision, testDecideContext, testRules } from "../test-support/gate.js";
import { writeNewFile, writeSplice } from "../text-splice.js";
import { editTool } from "./edit.js";
import { multiEditTool } from "./multi-edit.js";
import { readTool } from "./read.js";
import { writeTool } from "./write.js";

// Writes through symlinks and hard links (issue 16, item 4), decided by policy's real gate.
let dir: string;
let proj: string;
let outside: string;
let ctx: ToolCtx;
beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), "zeng-links-")));
  proj = join(dir, "proj");
  outside = join(dir, "home");
  await mkdir(proj);
  await mkdir(join(outside, ".ssh"), { recursive: true });
  ctx = testCtx({ root: proj });
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const noRules = () => testRules({}, proj);
const gate = <I>(tool: Tool<I>, input: I, mode: PermissionMode = "acceptEdits") =>
  gateDecision(tool, input, ctx, mode, noRules(), testDecideContext(proj, outside));

describe("file tools resolve links before the gate", () => {
  it("a dangling symlink out of the project asks, and names its target", async () => {
    const keys = join(outside, ".ssh", "authorized_keys");
    await symlink(keys, join(proj, "keys.txt"));
    const input = { file_path: "keys.txt", content: "ssh-ed25519 AAAA attacker\n" };
    expect(await writeTool.action(input, ctx)).toEqual([
      { kind: "write", paths: [keys, join(proj, "keys.txt")] },
    ]);
    const decision = await gate(writeTool, input);
    expect(decision.type).toBe("ask");
    expect(decision.type === "ask" && decision.reason).toContain(keys);
    const edit = { file_path: "keys.txt", old_string: "", new_string: "x" };
    expect((await gate(editTool, edit)).type).toBe("ask");
    expect((await gate(multiEditTool, { file_path: "keys.txt", edits: [edit] })).type).toBe("ask");
  });

  it("follows chains of relative dangling links, and a link inside the project stays inside", async () => {
    await symlink("b.txt", join(proj, "a.txt"));
    await symlink("../home/.ssh/config", join(proj, "b.txt"));
    const input = { file_path: join(proj, "a.txt"), content: "x" };
    expect((await writeTool.action(input, ctx))[0]).toMatchObject({
      paths: [join(outside, ".ssh", "config"), join(proj, "a.txt")],
    });
    expect((await gate(writeTool, input)).type).toBe("ask");
    await symlink("new.txt", join(proj, "inner.txt"));
    expect((await gate(writeTool, { file_path: "inner.txt", content: "x" })).type).toBe("allow");
  });

  it("a symlinked parent folder and an existing symlinked file resolve to where they lead", async () => {
    await symlink(join(outside, ".ssh"), join(proj, "sub"));
    const viaFolder = { file_path: "sub/authorized_keys", content: "x" };
    expect((await writeTool.action(viaFolder, ctx))[0]).toMatchObject({
      paths: [join(outside, ".ssh", "authorized_keys")],
    });
    expect((await gate(writeTool, viaFolder)).type).toBe("ask");
    await writeFile(join(outside, ".bashrc"), "echo hi\n");
    await symlink(join(outside, ".bashrc"), join(proj, "rc"));
    expect(
      (await gate(editTool, { file_path: "rc", old_string: "hi", new_string: "x" })).type,
    ).toBe("ask");
  });

  it("a file with another hard link asks in acceptEdits, and bypass still allows it", async () => {
    await writeFile(join(outside, "shared.txt"), "v1\n");
    await link(join(outside, "shared.txt"), join(proj, "h.txt"));
    await writeFile(join(proj, "plain.txt"), "v1\n");
    const edit = (file: string) => ({ file_path: file, old_string: "v1", new_string: "v2" });
    expect((await editTool.action(edit("h.txt"), ctx))[0]).toEqual({
      kind: "write",
      paths: [join(proj, "h.txt"), OTHER_HARD_LINKS],
    });
    expect((await gate(editTool, edit("h.txt"))).type).toBe("ask");
    expect((await gate(editTool, edit("plain.txt"))).type).toBe("allow");
    expect((await gate(editTool, edit("h.txt"), "bypass")).type).toBe("allow");
    // A Read of it asks too (issue 38, item 25: its other name may be a file the rules keep
    // out); hard-link-read.test.ts has the rest.
    expect((await gate(readTool, { file_path: "h.txt" })).type).toBe("ask");
    expect((await gate(readTool, { file_path: "plain.txt" })).type).toBe("allow");
  });

  it("a symlink loop gives an error, not a hang", async () => {
    await symlink("loop-b", join(proj, "loop-a"));
    await symlink("loop-a", join(proj, "loop-b"));
    const out = await runTool(writeTool, { file_path: "loop-a", content: "x" }, ctx);
    expect(out.isError).toBe(true);
    expect(textOf(out)).toMatch(/symbolic link|appeared/);
  });
});

describe("file tools write where the gate looked", () => {
  it("refuses a call whose path became a symlink after its action was checked", async () => {
    const path = join(proj, "notes.txt");
    await writeFile(path, "old\n");
    await runTool(readTool, { file_path: path }, ctx);
    const input = { file_path: path, old_string: "old", new_string: "new" };
    expect((await gate(editTool, input)).type).toBe("allow");
    // An earlier call of the batch swaps the file for a link out of the project.
    await writeFile(join(outside, ".bashrc"), "old\n");
    await rm(path);
    await symlink(join(outside, ".bashrc"), path);
    const out = await runTool(editTool, input, ctx);
    expect(out.isError).toBe(true);
    expect(textOf(out)).toMatch(/no longer leads where it did/);
    expect(await readFile(join(outside, ".bashrc"), "utf8")).toBe("old\n");
  });

  it("refuses a call whose relative path resolves elsewhere after a cd", async () => {
    await mkdir(join(proj, "sub"));
    const input = { file_path: "notes.txt", content: "x" };
    expect(await writeTool.action(input, ctx)).toEqual([
      { kind: "write", paths: [join(proj, "notes.txt")] },
    ]);
    const moved = testCtx({ root: proj, cwd: join(proj, "sub") });
    const out = await runTool(writeTool, input, moved);
    expect(textOf(out)).toMatch(/no longer leads where it did/);
    await expect(readFile(join(proj, "sub", "notes.txt"))).rejects.toThrow(/ENOENT/);
  });

  it("refuses a Write whose missing file became a dangling link after the check", async () => {
    const input = { file_path: join(proj, "new.txt"), content: "payload" };
    expect((await gate(writeTool, input)).type).toBe("allow");
    await symlink(join(outside, "planted"), join(proj, "new.txt"));
    expect((await runTool(writeTool, input, ctx)).isError).toBe(true);
    await expect(readFile(join(outside, "planted"))).rejects.toThrow(/ENOENT/);
  });

  it("opens with O_NOFOLLOW: a path that is a symlink at write time is refused", async () => {
    await writeFile(join(outside, "target"), "keep");
    await symlink(join(outside, "target"), join(proj, "raced"));
    await symlink(join(outside, "dangling"), join(proj, "raced-new"));
    const splice = { offset: 0, chunks: [Buffer.from("evil")], length: 4 };
    const spliced = await writeSplice(join(proj, "raced"), splice, () => ({ ok: true }));
    expect(spliced.ok).toBe(false);
    const created = await writeNewFile(join(proj, "raced-new"), Buffer.from("evil"));
    expect(created.ok).toBe(false);
    expect(await readFile(join(outside, "target"), "utf8")).toBe("keep");
    await expect(readFile(join(outside, "dangling"))).rejects.toThrow(/ENOENT/);
  });
});
