import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { globTool } from "../builtin/glob.js";
import { grepTool } from "../builtin/grep.js";
import type { ToolCtx } from "../ctx.js";
import { runTool } from "../run-tool.js";
import { testCtx, textOf } from "../test-support/ctx.js";
import { gateDecision, readDeniedBy, testDecideContext, testRules } from "../test-support/gate.js";

// Read deny rules hold for Grep and Glob (issue 16, item 5): `Read(...)` matches every read.
let dir: string;
let proj: string;
let home: string;
beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), "zeng-deny-")));
  proj = join(dir, "proj");
  home = join(dir, "home");
  await mkdir(join(proj, "src"), { recursive: true });
  await mkdir(join(home, ".ssh"), { recursive: true });
  await writeFile(join(proj, ".env"), "API_KEY=SECRET-1\n");
  await writeFile(join(proj, "src", "app.ts"), "const key = process.env.API_KEY; // SECRET-0\n");
  await writeFile(join(home, ".ssh", "id_rsa"), "SECRET-2 private key\n");
  await writeFile(join(home, "notes.txt"), "SECRET-3 harmless\n");
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const DENY = ["Read(./.env)", "Read(~/.ssh/**)"];
const context = () => testDecideContext(proj, home);
const rules = () => testRules({ deny: DENY }, proj);

function ctxWith(rgPath: string | null | undefined): ToolCtx {
  return testCtx({ root: proj, search: { rgPath }, readDenied: readDeniedBy(rules(), context()) });
}

describe.each([
  ["ripgrep", undefined],
  ["the JS engine", null],
])("Grep and Glob with Read deny rules (%s)", (_engine, rgPath) => {
  it("Grep leaves out denied files, also when its glob names them", async () => {
    const ctx = ctxWith(rgPath);
    const listed = await runTool(grepTool, { pattern: "SECRET", glob: ".env" }, ctx);
    expect(textOf(listed)).not.toContain(".env\n");
    expect(textOf(listed)).toMatch(/No (files|matches) found/);
    expect(textOf(listed)).toMatch(/1 file was left out/);
    const content = await runTool(
      grepTool,
      { pattern: "SECRET", output_mode: "content", glob: "{.env,*.ts}" },
      ctx,
    );
    expect(textOf(content)).toContain("SECRET-0");
    expect(textOf(content)).not.toContain("SECRET-1");
  });

  it("a Grep rooted at home leaves out ~/.ssh and keeps the rest", async () => {
    const ctx = ctxWith(rgPath);
    const out = await runTool(
      grepTool,
      { pattern: "SECRET", path: home, output_mode: "content", glob: "**" },
      ctx,
    );
    expect(textOf(out)).toContain("SECRET-3");
    expect(textOf(out)).not.toContain("SECRET-2");
    const inside = await runTool(grepTool, { pattern: "SECRET", path: join(home, ".ssh") }, ctx);
    expect(textOf(inside)).not.toContain("id_rsa");
  });

  it("Glob leaves out denied paths", async () => {
    const ctx = ctxWith(rgPath);
    const env = await runTool(globTool, { pattern: ".env" }, ctx);
    expect(textOf(env)).not.toContain(join(proj, ".env"));
    const keys = await runTool(globTool, { pattern: "**/id_rsa", path: join(home, ".ssh") }, ctx);
    expect(textOf(keys)).not.toContain("id_rsa\n");
    expect(textOf(keys)).toMatch(/^No files found/);
  });
});

describe("Glob with a result limit and Read deny rules", () => {
  it("checks the newest paths until one more than it shows passes", async () => {
    for (const name of ["a", "b", "c"]) await writeFile(join(home, ".ssh", `${name}.txt`), name);
    for (const name of ["x", "y"]) await writeFile(join(home, `${name}.txt`), name);
    const ctx = testCtx({
      root: proj,
      limits: { globMaxResults: 1 },
      readDenied: readDeniedBy(rules(), context()),
    });
    const denied = await runTool(globTool, { pattern: "*.txt", path: join(home, ".ssh") }, ctx);
    expect(textOf(denied)).toBe(
      "No files found\n(3 files were left out: Read deny rules cover them.)",
    );
    const allowed = await runTool(globTool, { pattern: "*.txt", path: home }, ctx);
    expect(textOf(allowed)).toMatch(/\(Showing the 1 newest of more than 1 files\./);
  });
});

describe("a search rooted at a denied path", () => {
  it("is denied by the gate, and the tool refuses it on its own", async () => {
    const ctx = ctxWith(undefined);
    const input = { pattern: "SECRET", path: join(home, ".ssh", "id_rsa") };
    const decision = await gateDecision(grepTool, input, ctx, "bypass", rules(), context());
    expect(decision.type).toBe("deny");
    const out = await runTool(grepTool, input, ctx);
    expect(out.isError).toBe(true);
    expect(textOf(out)).toMatch(/denied by a Read rule/);
    expect(textOf(out)).not.toContain("SECRET-2");
  });
});
