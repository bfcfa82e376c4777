import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { editorCommands, runEditor } from "./external-editor.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "zeng-editor-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A program named `name` in `folder` that appends `mark` to the file it is given. */
async function fakeEditor(folder: string, name: string, mark: string): Promise<string> {
  await mkdir(folder, { recursive: true });
  const path = join(folder, name);
  await writeFile(path, `#!/bin/sh\nprintf '%s\\n' '${mark}' >> "$1"\n`);
  await chmod(path, 0o755);
  return path;
}

describe("editorCommands", () => {
  it("takes $VISUAL, else $EDITOR (split into words), else vi then nano", () => {
    expect(editorCommands({ VISUAL: "code -w", EDITOR: "vim" })).toEqual([["code", "-w"]]);
    expect(editorCommands({ VISUAL: "  ", EDITOR: " emacs  -nw " })).toEqual([["emacs", "-nw"]]);
    expect(editorCommands({})).toEqual([["vi"], ["nano"]]);
  });
});

describe("runEditor", () => {
  it("runs the editor on the file in the project folder and says when it exited 0", async () => {
    const file = join(dir, "AGENTS.md");
    const editor = await fakeEditor(join(dir, "tools"), "ed.sh", "edited");
    const outcome = await runEditor(file, { PATH: "/usr/bin:/bin", EDITOR: editor }, dir);
    expect(outcome).toEqual({ ok: true, editor });
    expect(await readFile(file, "utf8")).toBe("edited\n");
  });

  it("falls back to nano without vi, and never runs a vi the project put on PATH", async () => {
    const project = join(dir, "project");
    await fakeEditor(join(project, "bin"), "vi", "the project's vi");
    const tools = join(dir, "tools");
    await fakeEditor(tools, "nano", "nano");
    const file = join(project, "CLAUDE.md");
    const env = { PATH: `${join(project, "bin")}:${tools}` };
    expect(await runEditor(file, env, project)).toEqual({ ok: true, editor: "nano" });
    expect(await readFile(file, "utf8")).toBe("nano\n");
  });

  it("reports an editor that is missing or exits non-zero, and never rejects", async () => {
    const file = join(dir, "AGENTS.md");
    const missing = await runEditor(file, { PATH: dir, EDITOR: "no-such-editor" }, dir);
    expect(missing).toEqual({ ok: false, editor: "no-such-editor", problem: "was not found" });
    const failing = await runEditor(file, { PATH: "/usr/bin:/bin", EDITOR: "false" }, dir);
    expect(failing).toEqual({ ok: false, editor: "false", problem: "exited with 1" });
    const none = await runEditor(file, { PATH: dir }, dir);
    expect(none).toEqual({ ok: false, editor: "nano", problem: "was not found" });
  });
});
