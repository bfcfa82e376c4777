import { mkdtemp, readFile, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runTool } from "../run-tool.js";
import { testCtx, textOf } from "../test-support/ctx.js";
import type { ToolCtx } from "../ctx.js";
import { editTool } from "./edit.js";
import { multiEditTool } from "./multi-edit.js";
import { readTool } from "./read.js";
import { writeTool } from "./write.js";

let dir: string;
let ctx: ToolCtx;
beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), "zeng-edit-")));
  ctx = testCtx({ root: dir });
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function fileRead(name: string, content: string | Buffer): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, content);
  await runTool(readTool, { file_path: path }, ctx);
  return path;
}

describe("Edit", () => {
  it("replaces a unique match, reports the diff and the written path", async () => {
    const path = await fileRead("a.ts", "const a = 1;\nconst b = 2;\n");
    const out = await runTool(
      editTool,
      { file_path: path, old_string: "b = 2", new_string: "b = 3" },
      ctx,
    );
    expect(out.isError).toBe(false);
    expect(await readFile(path, "utf8")).toBe("const a = 1;\nconst b = 3;\n");
    expect(out.writtenPaths).toEqual([path]);
    expect(out.display).toEqual({
      kind: "diff",
      path: "a.ts",
      diff: "--- a/a.ts\n+++ b/a.ts\n@@ -1,2 +1,2 @@\n const a = 1;\n-const b = 2;\n+const b = 3;\n",
      added: 1,
      removed: 1,
    });
    expect(editTool.title({ file_path: path, old_string: "", new_string: "" }, ctx)).toBe(
      "Edit a.ts",
    );
  });

  it("refuses a file not read, changed since read, or deleted between read and edit", async () => {
    await writeFile(join(dir, "unread.txt"), "x");
    const unread = await runTool(
      editTool,
      { file_path: join(dir, "unread.txt"), old_string: "x", new_string: "y" },
      ctx,
    );
    expect(textOf(unread)).toMatch(/has not been read/);
    const changed = await fileRead("changed.txt", "x");
    await writeFile(changed, "x and more");
    expect(
      textOf(
        await runTool(editTool, { file_path: changed, old_string: "x", new_string: "y" }, ctx),
      ),
    ).toMatch(/modified since it was read/);
    expect(await readFile(changed, "utf8")).toBe("x and more");
    const deleted = await fileRead("deleted.txt", "x");
    await rm(deleted);
    const gone = await runTool(
      editTool,
      { file_path: deleted, old_string: "x", new_string: "y" },
      ctx,
    );
    expect(gone.isError).toBe(true);
    expect(textOf(gone)).toMatch(/does not exist/);
  });

  it("requires a unique match unless replace_all", async () => {
    const path = await fileRead("dup.txt", "foo foo\n");
    expect(
      textOf(
        await runTool(editTool, { file_path: path, old_string: "foo", new_string: "bar" }, ctx),
      ),
    ).toMatch(/more than once/);
    expect(
      textOf(
        await runTool(editTool, { file_path: path, old_string: "zzz", new_string: "bar" }, ctx),
      ),
    ).toMatch(/not found/);
    expect(
      textOf(
        await runTool(editTool, { file_path: path, old_string: "foo", new_string: "foo" }, ctx),
      ),
    ).toMatch(/No changes/);
    await runTool(
      editTool,
      { file_path: path, old_string: "foo", new_string: "$&$1", replace_all: true },
      ctx,
    );
    expect(await readFile(path, "utf8")).toBe("$&$1 $&$1\n");
  });

  it("keeps CRLF, a missing final newline, a BOM and a Latin-1 encoding", async () => {
    const crlf = await fileRead("crlf.txt", "a\r\nb\r\nc");
    await runTool(editTool, { file_path: crlf, old_string: "a\nb", new_string: "a\nB\nb2" }, ctx);
    expect(await readFile(crlf, "utf8")).toBe("a\r\nB\r\nb2\r\nc");
    const bom = await fileRead("bom.txt", Buffer.from("\ufeffhello\n", "utf8"));
    await runTool(editTool, { file_path: bom, old_string: "hello", new_string: "héllo" }, ctx);
    expect(await readFile(bom)).toEqual(Buffer.from("\ufeffhéllo\n", "utf8"));
    const latin = await fileRead("latin.txt", Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0x78]));
    await runTool(editTool, { file_path: latin, old_string: "x", new_string: "y" }, ctx);
    expect(await readFile(latin)).toEqual(Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0x79]));
  });

  it("refuses binaries; edits a symlink's target; handles a unicode path", async () => {
    const binary = await fileRead("b.bin", Buffer.from([0, 1, 2]));
    expect(
      textOf(await runTool(editTool, { file_path: binary, old_string: "a", new_string: "b" }, ctx)),
    ).toMatch(/binary/);
    const target = await fileRead("célèbre 文件.txt", "old\n");
    await symlink(target, join(dir, "link.txt"));
    expect(
      await editTool.action(
        { file_path: join(dir, "link.txt"), old_string: "", new_string: "" },
        ctx,
      ),
    ).toEqual([{ kind: "write", paths: [target, join(dir, "link.txt")] }]);
    const out = await runTool(
      editTool,
      { file_path: join(dir, "link.txt"), old_string: "old", new_string: "new" },
      ctx,
    );
    expect(out.writtenPaths).toEqual([target]);
    expect(await readFile(target, "utf8")).toBe("new\n");
  });

  it("edits a line of a 10 MB file", async () => {
    const path = await fileRead("big.txt", `${`${"x".repeat(99)}\n`.repeat(100_000)}needle\n`);
    const out = await runTool(
      editTool,
      { file_path: path, old_string: "needle", new_string: "found" },
      ctx,
    );
    expect(out.display).toMatchObject({ kind: "diff", added: 1, removed: 1 });
    const text = await readFile(path, "utf8");
    expect(text.endsWith("x\nfound\n")).toBe(true);
    expect(text.length).toBe(10_000_006);
  });

  it("serialises two concurrent edits of one file so both land", async () => {
    const path = await fileRead("c.txt", "alpha\nbeta\n");
    const [first, second] = await Promise.all([
      runTool(editTool, { file_path: path, old_string: "alpha", new_string: "ALPHA" }, ctx),
      runTool(editTool, { file_path: path, old_string: "beta", new_string: "BETA" }, ctx),
    ]);
    expect([first.isError, second.isError]).toEqual([false, false]);
    expect(await readFile(path, "utf8")).toBe("ALPHA\nBETA\n");
  });

  it("previews the diff without writing", async () => {
    const path = await fileRead("p.txt", "1\n2\n3\n4\n5\n6\n7\n8\n9\n");
    const preview = await editTool.preview(
      { file_path: path, old_string: "5", new_string: "five" },
      ctx,
    );
    expect(preview).toMatchObject({ kind: "diff", added: 1, removed: 1 });
    expect(preview?.kind === "diff" && preview.diff).toContain(
      "@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n",
    );
    expect(await readFile(path, "utf8")).toBe("1\n2\n3\n4\n5\n6\n7\n8\n9\n");
    expect(
      await editTool.preview({ file_path: path, old_string: "nope", new_string: "x" }, ctx),
    ).toMatchObject({ kind: "text" });
  });

  it("does not write when cancelled", async () => {
    const path = await fileRead("cancel.txt", "a");
    const controller = new AbortController();
    const cancelCtx = { ...ctx, signal: controller.signal };
    controller.abort();
    const out = await editTool.call(
      { file_path: path, old_string: "a", new_string: "b" },
      cancelCtx,
    );
    expect(out.isError).toBe(true);
    expect(await readFile(path, "utf8")).toBe("a");
  });
});

describe("MultiEdit", () => {
  it("applies edits in order, all or nothing", async () => {
    const path = await fileRead("m.txt", "one two three\n");
    const ok = await runTool(
      multiEditTool,
      {
        file_path: path,
        edits: [
          { old_string: "one", new_string: "1" },
          { old_string: "1 two", new_string: "12" },
        ],
      },
      ctx,
    );
    expect(ok.isError).toBe(false);
    expect(await readFile(path, "utf8")).toBe("12 three\n");
    const bad = await runTool(
      multiEditTool,
      {
        file_path: path,
        edits: [
          { old_string: "12", new_string: "x" },
          { old_string: "missing", new_string: "y" },
        ],
      },
      ctx,
    );
    expect(textOf(bad)).toMatch(/^Edit 2 of 2: String to replace not found.*No edit was applied/);
    expect(await readFile(path, "utf8")).toBe("12 three\n");
    expect(textOf(await runTool(multiEditTool, { file_path: path, edits: [] }, ctx))).toMatch(
      /edits/,
    );
  });
});

describe("Write", () => {
  it("creates a file with its folders, and overwrites only after a read", async () => {
    const path = join(dir, "new", "deep", "f.txt");
    const created = await runTool(writeTool, { file_path: path, content: "hi\n" }, ctx);
    expect(textOf(created)).toMatch(/^Created/);
    expect(await readFile(path, "utf8")).toBe("hi\n");
    await runTool(writeTool, { file_path: path, content: "again\n" }, ctx);
    expect(await readFile(path, "utf8")).toBe("again\n");
    await writeFile(join(dir, "other.txt"), "mine");
    const refused = await runTool(
      writeTool,
      { file_path: join(dir, "other.txt"), content: "theirs" },
      ctx,
    );
    expect(textOf(refused)).toMatch(/has not been read/);
    expect(await readFile(join(dir, "other.txt"), "utf8")).toBe("mine");
    const crlf = await fileRead("w.txt", "a\r\nb\r\n");
    await runTool(writeTool, { file_path: crlf, content: "x\ny\n" }, ctx);
    expect(await readFile(crlf, "utf8")).toBe("x\r\ny\r\n");
    expect(textOf(await runTool(writeTool, { file_path: dir, content: "x" }, ctx))).toMatch(
      /directory/,
    );
  });
});
