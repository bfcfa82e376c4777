import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ToolCtx } from "../ctx.js";
import { runTool } from "../run-tool.js";
import { testCtx, textOf } from "../test-support/ctx.js";
import { editTool } from "./edit.js";
import { globTool } from "./glob.js";
import { grepTool } from "./grep.js";
import { multiEditTool } from "./multi-edit.js";
import { readTool } from "./read.js";
import { writeTool } from "./write.js";

// FIFOs and devices (issue 16, item 9): refused at once, never opened; cancellation honoured.
let dir: string;
let fifo: string;
let ctx: ToolCtx;
beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), "zeng-special-")));
  fifo = join(dir, "pipe");
  execFileSync("mkfifo", [fifo]);
  ctx = testCtx({ root: dir });
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const NOT_REGULAR = /not a regular file/;

describe("file tools refuse what is not a regular file", () => {
  it.each([
    ["Read", () => runTool(readTool, { file_path: fifo }, ctx)],
    ["Write", () => runTool(writeTool, { file_path: fifo, content: "x" }, ctx)],
    ["Edit", () => runTool(editTool, { file_path: fifo, old_string: "", new_string: "x" }, ctx)],
    [
      "MultiEdit",
      () =>
        runTool(
          multiEditTool,
          { file_path: fifo, edits: [{ old_string: "", new_string: "x" }] },
          ctx,
        ),
    ],
    ["Grep", () => runTool(grepTool, { pattern: "x", path: fifo }, ctx)],
    [
      "Grep (JS engine)",
      () => runTool(grepTool, { pattern: "x", path: fifo }, { ...ctx, search: { rgPath: null } }),
    ],
  ])("%s of a FIFO is an error result", async (_name, call) => {
    const out = await call();
    expect(out.isError).toBe(true);
    expect(textOf(out)).toMatch(/FIFO/);
  });

  it("Read, Edit and Write of /dev/zero are error results", async () => {
    const read = await runTool(readTool, { file_path: "/dev/zero" }, ctx);
    expect(textOf(read)).toMatch(/character device/);
    const write = await runTool(writeTool, { file_path: "/dev/zero", content: "x" }, ctx);
    expect(textOf(write)).toMatch(NOT_REGULAR);
    const edit = await runTool(
      editTool,
      { file_path: "/dev/zero", old_string: "", new_string: "x" },
      ctx,
    );
    expect(textOf(edit)).toMatch(NOT_REGULAR);
    const grep = await runTool(grepTool, { pattern: "x", path: "/dev/zero" }, ctx);
    expect(textOf(grep)).toMatch(NOT_REGULAR);
  });

  it("a preview of an edit of a FIFO is the error, not a hang", async () => {
    const preview = await editTool.preview(
      { file_path: fifo, old_string: "", new_string: "x" },
      ctx,
    );
    expect(preview).toMatchObject({ kind: "text" });
  });

  it("Grep and Glob of a folder holding a FIFO list the regular files only", async () => {
    await writeFile(join(dir, "a.txt"), "needle\n");
    const grep = await runTool(grepTool, { pattern: "needle", path: dir, glob: "*" }, ctx);
    expect(textOf(grep)).toBe(`Found 1 file\n${join(dir, "a.txt")}`);
    const jsCtx = { ...ctx, search: { rgPath: null } };
    const js = await runTool(grepTool, { pattern: "needle", path: dir, glob: "*" }, jsCtx);
    expect(textOf(js)).toBe(`Found 1 file\n${join(dir, "a.txt")}`);
    expect(textOf(await runTool(globTool, { pattern: "*" }, ctx))).toBe(join(dir, "a.txt"));
    expect(textOf(await runTool(globTool, { pattern: "*" }, jsCtx))).toBe(join(dir, "a.txt"));
  });
});

describe("cancellation", () => {
  async function bigTree(): Promise<string> {
    const root = join(dir, "tree");
    for (let d = 0; d < 10; d++) {
      const folder = join(root, `d${d}`);
      await mkdir(folder, { recursive: true });
      await Promise.all(
        Array.from({ length: 50 }, (_, f) =>
          writeFile(join(folder, `f${f}.txt`), "plain\n".repeat(50)),
        ),
      );
    }
    return root;
  }

  it.each([
    ["ripgrep", undefined],
    ["the JS engine", null],
  ])(
    "a Grep cancelled while it runs (%s) ends with a cancelled result",
    async (_name, rgPath) => {
      const root = await bigTree();
      const controller = new AbortController();
      const cancelCtx = { ...ctx, signal: controller.signal, search: { rgPath } };
      const running = runTool(grepTool, { pattern: "needle", path: root }, cancelCtx);
      setImmediate(() => controller.abort());
      const out = await running;
      expect(out.isError).toBe(true);
      expect(textOf(out)).toMatch(/[Cc]ancel|stopped/);
    },
    30_000,
  );

  it("a Read or Edit cancelled before its read leaves the file as it was", async () => {
    const path = join(dir, "f.txt");
    await writeFile(path, "a\n");
    await runTool(readTool, { file_path: path }, ctx);
    const controller = new AbortController();
    controller.abort();
    const cancelCtx = { ...ctx, signal: controller.signal };
    expect((await readTool.call({ file_path: path }, cancelCtx)).isError).toBe(true);
    const edit = await editTool.call(
      { file_path: path, old_string: "a", new_string: "b" },
      cancelCtx,
    );
    expect(edit.isError).toBe(true);
    expect(await readFile(path, "utf8")).toBe("a\n");
  });
});
