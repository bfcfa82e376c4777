import { execFileSync } from "node:child_process";
import { mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { EditorFiles } from "../editor-files.js";
import { createFileTracker } from "../file-tracker.js";
import { runTool } from "../run-tool.js";
import { testCtx, textOf } from "../test-support/ctx.js";
import { editTool } from "./edit.js";
import { readTool } from "./read.js";
import { writeTool } from "./write.js";

/**
 * An editor as a host hands it in (ACP's client fs): buffers over the disk. A buffer the test
 * set is what the editor shows (unsaved); `save` says whether its writes reach the disk.
 */
function editor(options: { save?: boolean; write?: boolean } = {}) {
  const buffers = new Map<string, string>();
  const reads: string[] = [];
  const writes: Array<[string, string]> = [];
  const files: EditorFiles = {
    readTextFile: async (path) => {
      reads.push(path);
      return buffers.get(path) ?? (await readFile(path, "utf8"));
    },
    ...(options.write === false
      ? {}
      : {
          writeTextFile: async (path: string, text: string) => {
            writes.push([path, text]);
            buffers.set(path, text);
            if (options.save) await writeFile(path, text);
          },
        }),
  };
  return { files, buffers, reads, writes };
}

let dir: string;
beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), "zeng-editor-")));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("file tools through a host's editor", () => {
  it("Read sees the unsaved buffer, and Edit changes the buffer, not the disk", async () => {
    const path = join(dir, "a.ts");
    await writeFile(path, "const a = 1;\n");
    const ed = editor();
    ed.buffers.set(path, "const a = 2; // unsaved\n");
    const ctx = testCtx({ root: dir, ports: { editor: ed.files } });
    const read = await runTool(readTool, { file_path: path }, ctx);
    expect(textOf(read)).toContain("const a = 2; // unsaved");
    const edit = await runTool(
      editTool,
      { file_path: path, old_string: "a = 2", new_string: "a = 3" },
      ctx,
    );
    expect(edit.isError).toBe(false);
    expect(ed.writes).toEqual([[path, "const a = 3; // unsaved\n"]]);
    expect(await readFile(path, "utf8")).toBe("const a = 1;\n");
    expect(edit.display).toMatchObject({ kind: "diff", added: 1, removed: 1 });
    // The edit's own write is what the agent now knows: a second edit needs no new Read.
    const again = await runTool(
      editTool,
      { file_path: path, old_string: "a = 3", new_string: "a = 4" },
      ctx,
    );
    expect(again.isError).toBe(false);
  });

  it("refuses an edit when the buffer changed since the Read, though the disk did not", async () => {
    const path = join(dir, "b.txt");
    await writeFile(path, "one\n");
    const ed = editor();
    const ctx = testCtx({ root: dir, ports: { editor: ed.files } });
    await runTool(readTool, { file_path: path }, ctx);
    ed.buffers.set(path, "one, typed by the user\n");
    const edit = await runTool(
      editTool,
      { file_path: path, old_string: "one", new_string: "two" },
      ctx,
    );
    expect(edit.isError).toBe(true);
    expect(textOf(edit)).toMatch(/modified since it was read/);
    expect(ed.writes).toEqual([]);
  });

  it("Write of a new file goes through the editor, and an unread one is still refused", async () => {
    const ed = editor({ save: true });
    const ctx = testCtx({ root: dir, ports: { editor: ed.files } });
    const path = join(dir, "new", "c.md");
    const out = await runTool(writeTool, { file_path: path, content: "# c\n" }, ctx);
    expect(out.isError).toBe(false);
    expect(ed.writes).toEqual([[path, "# c\n"]]);
    expect(await readFile(path, "utf8")).toBe("# c\n");
    const other = join(dir, "d.txt");
    await writeFile(other, "d\n");
    const refused = await runTool(writeTool, { file_path: other, content: "x" }, ctx);
    expect(textOf(refused)).toMatch(/has not been read/);
  });

  it("keeps CRLF and a BOM the editor's text had", async () => {
    const path = join(dir, "crlf.txt");
    await writeFile(path, "\uFEFFa\r\nb\r\n");
    const ed = editor();
    const ctx = testCtx({ root: dir, ports: { editor: ed.files } });
    await runTool(readTool, { file_path: path }, ctx);
    await runTool(editTool, { file_path: path, old_string: "b", new_string: "c" }, ctx);
    expect(ed.writes).toEqual([[path, "\uFEFFa\r\nc\r\n"]]);
  });

  it("an editor that only reads: the edit writes the whole new text to disk", async () => {
    const path = join(dir, "e.txt");
    await writeFile(path, "short\n");
    const ed = editor({ write: false });
    ed.buffers.set(path, "a longer unsaved text\n");
    const ctx = testCtx({ root: dir, ports: { editor: ed.files } });
    await runTool(readTool, { file_path: path }, ctx);
    const out = await runTool(
      editTool,
      { file_path: path, old_string: "longer", new_string: "long" },
      ctx,
    );
    expect(out.isError).toBe(false);
    expect(await readFile(path, "utf8")).toBe("a long unsaved text\n");
  });

  it("never hands a folder or a FIFO to the editor, and reads images from disk", async () => {
    const fifo = join(dir, "pipe");
    execFileSync("mkfifo", [fifo]);
    const png = join(dir, "dot.png");
    await writeFile(png, Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    const ed = editor();
    const ctx = testCtx({ root: dir, ports: { editor: ed.files }, vision: true });
    expect(textOf(await runTool(readTool, { file_path: fifo }, ctx))).toMatch(/FIFO/);
    expect(textOf(await runTool(readTool, { file_path: dir }, ctx))).toMatch(/is a directory/);
    const edit = await runTool(editTool, { file_path: fifo, old_string: "", new_string: "x" }, ctx);
    expect(edit.isError).toBe(true);
    const image = await runTool(readTool, { file_path: png }, ctx);
    expect(image.content.some((b) => b.type === "image")).toBe(true);
    expect(ed.reads).toEqual([]);
  });

  it("reports an editor that cannot read or write, and changes nothing", async () => {
    const path = join(dir, "f.txt");
    await writeFile(path, "f\n");
    const failing: EditorFiles = {
      readTextFile: async () => {
        throw new Error("buffer is locked");
      },
    };
    const ctx = testCtx({ root: dir, ports: { editor: failing } });
    const read = await runTool(readTool, { file_path: path }, ctx);
    expect(textOf(read)).toBe(`The editor could not read ${path}: buffer is locked`);
    const readOnly = editor();
    const refusing: EditorFiles = {
      ...readOnly.files,
      writeTextFile: async () => {
        throw new Error("read-only buffer");
      },
    };
    const ctx2 = testCtx({ root: dir, ports: { editor: refusing } });
    await runTool(readTool, { file_path: path }, ctx2);
    const edit = await runTool(
      editTool,
      { file_path: path, old_string: "f", new_string: "g" },
      ctx2,
    );
    expect(textOf(edit)).toBe(`The editor could not write ${path}: read-only buffer`);
    expect(edit.thrown).toBeUndefined();
    expect(await readFile(path, "utf8")).toBe("f\n");
  });

  it("the tracker leaves files read through the editor out of the changed-outside list", async () => {
    const path = join(dir, "g.txt");
    await writeFile(path, "g\n");
    const files = createFileTracker();
    const ctx = testCtx({ root: dir, files, ports: { editor: editor().files } });
    await runTool(readTool, { file_path: path }, ctx);
    await writeFile(path, "changed on disk, longer\n");
    expect(await files.changedSinceRead()).toEqual([]);
    expect(files.has(path)).toBe(true);
  });
});
