import { mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runTool } from "../run-tool.js";
import { testCtx, textOf } from "../test-support/ctx.js";
import { readTool } from "./read.js";

let dir: string;
beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), "zeng-read-")));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A one-page PDF showing `text`, with a correct cross-reference table. */
function minimalPdf(text: string): Buffer {
  const stream = `BT /F1 24 Tf 72 720 Td (${text}) Tj ET`;
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  let body = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, "0")} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, "latin1");
}

const PNG_1X1 = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

describe("Read", () => {
  it("numbers lines and records the file for later edits", async () => {
    const path = join(dir, "a.ts");
    await writeFile(path, "one\ntwo\nthree\n");
    const ctx = testCtx({ root: dir });
    const out = await runTool(readTool, { file_path: path }, ctx);
    expect(textOf(out)).toBe("     1\tone\n     2\ttwo\n     3\tthree");
    expect(ctx.files.has(path)).toBe(true);
    expect(await readTool.action({ file_path: "a.ts" }, ctx)).toEqual([
      { kind: "read", paths: [path] },
    ]);
    expect(readTool.title({ file_path: path }, ctx)).toBe("Read a.ts");
  });

  it("reads a window with offset and limit and says what is left", async () => {
    const path = join(dir, "long.txt");
    await writeFile(path, Array.from({ length: 50 }, (_, i) => `line ${i + 1}`).join("\n"));
    const out = textOf(
      await runTool(readTool, { file_path: path, offset: 10, limit: 2 }, testCtx({ root: dir })),
    );
    expect(out).toMatch(/^ {4}10\tline 10\n {4}11\tline 11\n\n\(Showing lines 10-11 of 50/);
    const past = textOf(
      await runTool(readTool, { file_path: path, offset: 99 }, testCtx({ root: dir })),
    );
    expect(past).toMatch(/has 50 lines; offset 99 is past its end/);
  });

  it("handles an empty file, a 10 MB file, long lines, CRLF and a unicode path through a symlink", async () => {
    const ctx = testCtx({ root: dir, limits: { maxLineChars: 10 } });
    await writeFile(join(dir, "empty"), "");
    expect(textOf(await runTool(readTool, { file_path: join(dir, "empty") }, ctx))).toMatch(
      /exists but is empty/,
    );
    const big = join(dir, "big.txt");
    await writeFile(big, "0123456789abcdef\n".repeat(620_000));
    const bigOut = textOf(await runTool(readTool, { file_path: big }, ctx));
    expect(bigOut.split("\n").filter((l) => /^\s+\d+\t/.test(l))).toHaveLength(2000);
    expect(bigOut).toMatch(/0123456789… \[line cut at 10 characters\]/);
    expect(bigOut).toMatch(/of 620000/);
    const unicode = join(dir, "dossier é", "データ.txt");
    await runTool(readTool, { file_path: unicode }, ctx);
    await writeFile(join(dir, "crlf-ü.txt"), "a\r\nb\r\n");
    await symlink(join(dir, "crlf-ü.txt"), join(dir, "link.txt"));
    const out = await runTool(readTool, { file_path: join(dir, "link.txt") }, ctx);
    expect(textOf(out)).toBe("     1\ta\n     2\tb");
    expect(ctx.files.has(join(dir, "crlf-ü.txt"))).toBe(true);
  });

  it("decodes non-UTF-8 as Latin-1 and says so", async () => {
    const path = join(dir, "latin.txt");
    await writeFile(path, Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    const out = textOf(await runTool(readTool, { file_path: path }, testCtx({ root: dir })));
    expect(out).toMatch(/Latin-1/);
    expect(out).toMatch(/1\tcafé/);
  });

  it("refuses binaries, folders and missing files with a reason", async () => {
    const ctx = testCtx({ root: dir });
    await writeFile(join(dir, "blob"), Buffer.from([1, 2, 0, 3]));
    const binary = await runTool(readTool, { file_path: join(dir, "blob") }, ctx);
    expect(binary.isError).toBe(true);
    expect(textOf(binary)).toMatch(/binary file \(it contains NUL bytes\)/);
    expect(textOf(await runTool(readTool, { file_path: dir }, ctx))).toMatch(/is a directory/);
    expect(textOf(await runTool(readTool, { file_path: join(dir, "nope") }, ctx))).toMatch(
      /File does not exist/,
    );
    expect(textOf(await runTool(readTool, { file_path: join(dir, "x"), offset: 0 }, ctx))).toMatch(
      /offset/,
    );
    expect(textOf(await runTool(readTool, { path: "x" }, ctx))).toMatch(/file_path: missing field/);
  });

  it("returns images as image blocks only when the model has vision", async () => {
    const path = join(dir, "dot.png");
    await writeFile(path, PNG_1X1);
    const seen = await runTool(readTool, { file_path: path }, testCtx({ root: dir, vision: true }));
    expect(seen.content[1]).toEqual({
      type: "image",
      mediaType: "image/png",
      data: PNG_1X1.toString("base64"),
    });
    const blind = await runTool(readTool, { file_path: path }, testCtx({ root: dir }));
    expect(blind.isError).toBe(true);
    expect(textOf(blind)).toMatch(/cannot read images/);
  });

  it("reads PDFs and notebooks as text", async () => {
    const pdf = join(dir, "doc.pdf");
    await writeFile(pdf, minimalPdf("Hello PDF world"));
    expect(textOf(await runTool(readTool, { file_path: pdf }, testCtx({ root: dir })))).toMatch(
      /--- Page 1 ---\n\s+2\tHello PDF world/,
    );
    const notebook = join(dir, "n.ipynb");
    const cells = [
      { cell_type: "markdown", source: ["# Title"] },
      {
        cell_type: "code",
        source: "print(1)",
        outputs: [{ output_type: "stream", text: ["1\n"] }],
      },
    ];
    await writeFile(notebook, JSON.stringify({ cells }));
    const text = textOf(await runTool(readTool, { file_path: notebook }, testCtx({ root: dir })));
    expect(text).toMatch(/# Cell 1 \[markdown\]\n\s+2\t# Title/);
    expect(text).toMatch(/print\(1\)\n\s+6\t# Output\n\s+7\t1/);
    await writeFile(join(dir, "broken.pdf"), "not a pdf");
    expect(
      (await runTool(readTool, { file_path: join(dir, "broken.pdf") }, testCtx({ root: dir })))
        .isError,
    ).toBe(true);
  });
});
