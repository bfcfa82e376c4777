import { link, mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { decide } from "@z-engine/policy";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runTool } from "../run-tool.js";
import { testCtx, textOf } from "../test-support/ctx.js";
import { gateDecision, readDeniedBy, testDecideContext, testRules } from "../test-support/gate.js";
import { grepTool } from "./grep.js";
import { readTool } from "./read.js";

// Issue 38, item 25: a hard link inside the project to a file under a Read deny rule was read
// by Read and Grep without a question (the rules saw only its harmless name).
const SECRET = "SECRET-HARDLINK-MARKER";
let dir: string;
let proj: string;
let home: string;
beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), "zeng-hardlink-")));
  proj = join(dir, "proj");
  home = join(dir, "home");
  await mkdir(join(proj, "src"), { recursive: true });
  await mkdir(join(home, ".ssh"), { recursive: true });
  await writeFile(join(home, ".ssh", "id_rsa"), `${SECRET} private key\n`);
  await link(join(home, ".ssh", "id_rsa"), join(proj, "src", "notes.txt"));
  await writeFile(join(proj, "src", "plain.txt"), `${SECRET.toLowerCase()} plain\n`);
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const DENY = ["Read(~/.ssh/**)"];
const context = () => testDecideContext(proj, home);
const gate = (allow: string[] = []) => testRules({ deny: DENY, allow }, proj);
const hardLinkAllowed =
  (allow: string[] = []) =>
  (path: string) =>
    decide(
      { toolName: "Read", actions: [{ kind: "read", paths: [path], hardLinked: true }] },
      "ask",
      gate(allow),
      context(),
    ).type === "allow";

describe("a hard link to a denied file", () => {
  it("Read asks for it, and a rule under its own name decides", async () => {
    const ctx = testCtx({ root: proj });
    const input = { file_path: join(proj, "src", "notes.txt") };
    expect(await readTool.action(input, ctx)).toEqual([
      { kind: "read", paths: [join(proj, "src", "notes.txt")], hardLinked: true },
    ]);
    const asked = await gateDecision(readTool, input, ctx, "acceptEdits", gate(), context());
    expect(asked.type).toBe("ask");
    expect(asked.type === "ask" && asked.reason).toContain("other hard links");
    const allowed = await gateDecision(
      readTool,
      input,
      ctx,
      "ask",
      gate(["Read(./src/**)"]),
      context(),
    );
    expect(allowed.type).toBe("allow");
    const plain = { file_path: join(proj, "src", "plain.txt") };
    expect((await gateDecision(readTool, plain, ctx, "ask", gate(), context())).type).toBe("allow");
  });

  it("Read refuses a call whose file gained a hard link after the gate looked", async () => {
    const ctx = testCtx({ root: proj });
    const path = join(proj, "src", "plain.txt");
    await readTool.action({ file_path: path }, ctx);
    await link(path, join(dir, "elsewhere.txt"));
    const out = await runTool(readTool, { file_path: path }, ctx);
    expect(out.isError).toBe(true);
    expect(textOf(out)).toContain("no longer leads where it did");
  });

  it.each([
    ["ripgrep", undefined],
    ["the JS engine", null],
  ])("Grep (%s) leaves it out with a note unless a rule allows it by name", async (_e, rgPath) => {
    const readDenied = readDeniedBy(gate(), context());
    const ctx = testCtx({
      root: proj,
      search: { rgPath },
      readDenied,
      hardLinkReadAllowed: hardLinkAllowed(),
    });
    const out = await runTool(
      grepTool,
      { pattern: "SECRET", "-i": true, output_mode: "content" },
      ctx,
    );
    expect(textOf(out)).not.toContain(SECRET);
    expect(textOf(out)).toContain("secret-hardlink-marker plain");
    expect(textOf(out)).toContain("1 file was left out: it has other hard links");
    const ruled = testCtx({
      root: proj,
      search: { rgPath },
      readDenied,
      hardLinkReadAllowed: hardLinkAllowed(["Read(./src/notes.txt)"]),
    });
    const shown = await runTool(grepTool, { pattern: "SECRET", output_mode: "content" }, ruled);
    expect(textOf(shown)).toContain(SECRET);
    const unwired = testCtx({ root: proj, search: { rgPath } });
    const bare = await runTool(grepTool, { pattern: "SECRET", output_mode: "content" }, unwired);
    expect(textOf(bare)).not.toContain(SECRET);
  });

  it("Grep of the hard-linked file itself is a hard-linked read for the gate", async () => {
    const ctx = testCtx({ root: proj });
    const input = { pattern: "x", path: join(proj, "src", "notes.txt") };
    expect((await gateDecision(grepTool, input, ctx, "ask", gate(), context())).type).toBe("ask");
  });
});
