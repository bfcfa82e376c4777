import { mkdtemp, rm, symlink, utimes } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFixtureRepo, type FixtureRepo } from "@z-engine/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { globTool } from "../builtin/glob.js";
import { grepTool } from "../builtin/grep.js";
import { runTool } from "../run-tool.js";
import { testCtx, textOf } from "../test-support/ctx.js";
import { findRipgrep, pathRipgrep } from "./ripgrep.js";

let repo: FixtureRepo;
let rg: string;

beforeAll(async () => {
  repo = await createFixtureRepo({
    files: {
      ".gitignore": "dist/\n*.log\n!keep.log\n",
      "src/main.ts":
        "import { helper } from './util';\nexport function main() {\n  return helper(1);\n}\n",
      "src/util.ts": "export function helper(n: number) {\n  // TODO: faster\n  return n + 1;\n}\n",
      "src/deep/nested/thing.tsx": "export const Thing = () => <div>TODO</div>;\n",
      "src/app.py": "def main():\n    return 'Main'\n\n\nclass Foo:\n    pass\n",
      "docs/readme.md":
        "# Title\nSee main for TODO items.\nline three\nline four\nline five\nmain again\n",
      "docs/crlf.txt": "alpha\r\nmain\r\nomega\r\n",
      "dist/bundle.js": "function main() {}\n",
      "debug.log": "main failed\n",
      "keep.log": "main kept\n",
      ".hidden/secret.ts": "export const main = 1;\n",
      "unicode/naïve café.txt": "Grüße main ünïcode\n",
      "bin/blob.dat": new Uint8Array([109, 97, 105, 110, 0, 1, 2]),
      "src/sub/.gitignore": "ignored.ts\n",
      "src/sub/ignored.ts": "main\n",
      "src/sub/kept.ts": "main\n",
    },
  });
  rg = (await findRipgrep(undefined))!;
});
afterAll(async () => {
  await repo.dispose();
});

async function both(input: Record<string, unknown>, tool = grepTool) {
  const withRg = await runTool(tool, input, testCtx({ root: repo.root, search: { rgPath: rg } }));
  const withJs = await runTool(tool, input, testCtx({ root: repo.root, search: { rgPath: null } }));
  return {
    rg: textOf(withRg),
    js: textOf(withJs),
    rgError: withRg.isError,
    jsError: withJs.isError,
  };
}

describe("Grep engines", () => {
  it("finds the bundled ripgrep, and one on a PATH", async () => {
    expect(rg).toMatch(/rg$/);
    const bin = await mkdtemp(join(tmpdir(), "zeng-path-"));
    try {
      await symlink(rg, join(bin, "rg"));
      expect(await pathRipgrep(`/nonexistent:${bin}`)).toBe(join(bin, "rg"));
      expect(await pathRipgrep("/nonexistent")).toBeNull();
      expect(await findRipgrep(join(bin, "rg"))).toBe(join(bin, "rg"));
      expect(await findRipgrep(join(bin, "missing"))).toBeNull();
      expect(await findRipgrep(null)).toBeNull();
    } finally {
      await rm(bin, { recursive: true, force: true });
    }
  });

  const cases: Record<string, Record<string, unknown>> = {
    "files (ignore-aware, hidden and binary skipped)": { pattern: "main" },
    "content with line numbers": { pattern: "main", output_mode: "content" },
    "content with context": { pattern: "TODO", output_mode: "content", "-C": 1 },
    "content before/after, no numbers": {
      pattern: "line",
      output_mode: "content",
      "-B": 1,
      "-A": 2,
      "-n": false,
    },
    count: { pattern: "main|helper", output_mode: "count" },
    "case-insensitive": { pattern: "MAIN", "-i": true, output_mode: "content" },
    glob: { pattern: "main", glob: "*.{ts,tsx}" },
    "anchored glob": { pattern: "TODO", glob: "src/deep/**" },
    type: { pattern: "main", type: "py", output_mode: "content" },
    "a single file": { pattern: "o", path: "docs/readme.md", output_mode: "content" },
    multiline: {
      pattern: "helper\\(n: number\\) \\{\\n\\s+// TODO",
      multiline: true,
      output_mode: "content",
    },
    "multiline dot": { pattern: "class Foo:.pass", multiline: true, output_mode: "content" },
    "head limit and offset": { pattern: "main", output_mode: "content", head_limit: 2, offset: 1 },
    "unicode path and text": { pattern: "Grüße", output_mode: "content" },
    "CRLF lines": { pattern: "^main$", output_mode: "content" },
    "no match": { pattern: "zzz_nothing" },
  };
  for (const [name, input] of Object.entries(cases)) {
    it(`gives the same output with and without ripgrep: ${name}`, async () => {
      const result = await both(input);
      expect(result.rgError).toBe(false);
      expect(result.js).toBe(result.rg);
    });
  }

  it("produces the expected listing (not just equal ones)", async () => {
    const { rg: text } = await both({ pattern: "main" });
    const r = repo.root;
    expect(text).toBe(
      [
        "Found 7 files",
        `${r}/docs/crlf.txt`,
        `${r}/docs/readme.md`,
        `${r}/keep.log`,
        `${r}/src/app.py`,
        `${r}/src/main.ts`,
        `${r}/src/sub/kept.ts`,
        `${r}/unicode/naïve café.txt`,
      ].join("\n"),
    );
    const context = (await both({ pattern: "TODO", output_mode: "content", "-C": 1, path: "docs" }))
      .rg;
    expect(context).toBe(
      `${r}/docs/readme.md-1-# Title\n${r}/docs/readme.md:2:See main for TODO items.\n${r}/docs/readme.md-3-line three`,
    );
  });

  it("rejects look-around with the same clear error in both engines", async () => {
    const result = await both({ pattern: "main(?=\\()" });
    expect(result.rgError && result.jsError).toBe(true);
    expect(result.rg).toMatch(/look-around and backreferences are not supported/);
    expect(result.js).toBe(result.rg);
  });

  it("gives a clear error for a pattern only ripgrep accepts, and for invalid ones", async () => {
    const inline = await both({ pattern: "(?i)MAIN" });
    expect(inline.rgError).toBe(false);
    expect(inline.rg).toMatch(/^Found 7 files/);
    expect(inline.jsError).toBe(true);
    expect(inline.js).toMatch(/ripgrep is not available.*inline flags/);
    const broken = await both({ pattern: "main(" });
    expect(broken.rgError && broken.jsError).toBe(true);
    expect(broken.rg).toMatch(/Invalid regex pattern/);
    expect(broken.js).toMatch(/Invalid regex pattern/);
    const type = await both({ pattern: "x", type: "nosuchtype" });
    expect(type.rg).toMatch(/Unknown file type/);
    expect(type.js).toMatch(/Unknown file type/);
  });

  it("refuses bad input and a missing path", async () => {
    const ctx = testCtx({ root: repo.root });
    expect(textOf(await runTool(grepTool, { pattern: "" }, ctx))).toMatch(/pattern/);
    expect(textOf(await runTool(grepTool, { pattern: "x", output_mode: "lines" }, ctx))).toMatch(
      /output_mode/,
    );
    expect(textOf(await runTool(grepTool, { pattern: "x", "-A": -1 }, ctx))).toMatch(/-A/);
    expect(textOf(await runTool(grepTool, { pattern: "x", path: "nope" }, ctx))).toMatch(
      /Path does not exist/,
    );
    expect(await grepTool.action({ pattern: "x", path: "src" }, ctx)).toEqual([
      { kind: "read", paths: [join(repo.root, "src")] },
    ]);
  });

  it("puts long output in the artifact sink with a pointer", async () => {
    const ctx = testCtx({ root: repo.root, limits: { maxOutputChars: 60 } });
    const out = await runTool(grepTool, { pattern: "main" }, ctx);
    expect(out.artifacts).toHaveLength(1);
    expect(textOf(out)).toMatch(/Output truncated.*artifact:/);
    const stored = await ctx.artifacts.read(out.artifacts[0]!.ref);
    expect(new TextDecoder().decode(stored)).toMatch(/^Found 7 files/);
  });
});

describe("Glob", () => {
  beforeAll(async () => {
    const times: Record<string, number> = {
      "src/util.ts": 3000,
      "src/main.ts": 2000,
      "src/deep/nested/thing.tsx": 1000,
      "src/sub/kept.ts": 500,
    };
    for (const [path, seconds] of Object.entries(times))
      await utimes(repo.path(path), seconds, seconds * 1000);
  });

  it("lists matches newest first, ignore-aware, the same with and without ripgrep", async () => {
    const r = repo.root;
    const result = await both({ pattern: "**/*.ts*" }, globTool);
    expect(result.rg).toBe(
      [
        `${r}/src/util.ts`,
        `${r}/src/main.ts`,
        `${r}/src/deep/nested/thing.tsx`,
        `${r}/src/sub/kept.ts`,
      ].join("\n"),
    );
    expect(result.js).toBe(result.rg);
    const scoped = await both({ pattern: "*.ts", path: "src/sub" }, globTool);
    expect(scoped.rg).toBe(`${r}/src/sub/kept.ts`);
    const js = await both({ pattern: "*.js" }, globTool);
    expect(js.rg).toBe("No files found");
    expect(js.js).toBe(js.rg);
    expect(scoped.js).toBe(scoped.rg);
    expect((await both({ pattern: "*.nothing" }, globTool)).js).toBe("No files found");
  });

  it("caps the list and says so; refuses a missing folder", async () => {
    const ctx = testCtx({ root: repo.root, limits: { globMaxResults: 2 } });
    const out = await runTool(globTool, { pattern: "*.ts" }, ctx);
    expect(textOf(out)).toMatch(/Showing the 2 newest of 3 files/);
    expect(out.display).toMatchObject({ kind: "files", truncated: true });
    expect((await runTool(globTool, { pattern: "*", path: "nope" }, ctx)).isError).toBe(true);
  });
});
