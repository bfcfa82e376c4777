import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { compileRules } from "@z-engine/policy";
import type { ProjectFileReader } from "@z-engine/protocol";
import type { ScriptResponse } from "@z-engine/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { projectDoor } from "../../core/project-doors.js";
import { fileLooker } from "../file-look.js";
import type { FileLooker } from "../seams.js";
import { scriptedUseContext } from "../../test-support/use-context.js";
import { listedPaths, PREFETCH_CHARS, prefetch } from "./prefetch.js";
import { FILE_CHARS, sessionContext, TOTAL_CHARS } from "./session-context.js";

// session_context and prefetch against a scripted decision model and a real project read
// through the project-files door with real Read rules: only offered names count, a denied or
// asking path is never read, the size caps hold, a bad answer abstains, and each runs once.

const reply = (text: string): ScriptResponse => ({ events: [{ type: "textDelta", text }] });

const ctxWith = (...responses: ScriptResponse[]) => scriptedUseContext(responses, "turn_1");

let root = "";
let door: ProjectFileReader;
let reads: string[] = [];
let look: FileLooker;

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), "zeng-ctx46-")));
  const files: Record<string, string> = {
    "src/auth.ts": "export const login = () => 'ok';\n",
    "src/big.ts": "Q".repeat(20_000),
    "src/big2.ts": "Z".repeat(20_000),
    "src/other.ts": "export const other = 1;\n",
    "secret/key.txt": "TOP-SECRET-VALUE\n",
    "asked/note.txt": "ASKED-VALUE\n",
    "src/token.ts": `export const token = "ghp_${"a1B2".repeat(9)}";\n`,
  };
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
  const deny = compileRules(["Read(secret/**)"], { source: "test", root }).rules;
  const ask = compileRules(["Read(asked/**)"], { source: "test", root }).rules;
  const view = () => ({
    trusted: true,
    mode: "ask" as const,
    rules: { allow: [], ask, deny },
    additionalDirectories: [],
  });
  door = projectDoor({ projectRoot: root, homeDir: join(root, "home") }, view);
  const inner = fileLooker(door, root);
  reads = [];
  look = async (path, max) => {
    const got = await inner(path, max);
    if (got) reads.push(path);
    return got;
  };
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const projectFiles = async () => [
  "asked/note.txt",
  "secret/key.txt",
  "src/auth.ts",
  "src/big.ts",
  "src/big2.ts",
  "src/other.ts",
];
const first = (more: object = {}) => ({
  prompt: "fix the login in auth",
  mode: "ask" as const,
  exchanges: [],
  skills: [],
  firstTurn: true,
  projectFiles,
  look,
  deferredTools: [
    { name: "mcp__db__query", description: "Runs a SQL query" },
    { name: "mcp__db__schema", description: "Shows the schema" },
  ],
  ...more,
});

describe("session_context", () => {
  it("reads only offered files the Read rules allow without asking, and loads only offered tools", async () => {
    const { ctx, model } = ctxWith(
      reply(
        '{"files": ["secret/key.txt", "asked/note.txt", "src/auth.ts", "/etc/passwd"], "tools": ["mcp__db__query", "mcp__other__x"]}',
      ),
    );
    const advice = await sessionContext.decide(first(), ctx);
    expect(advice?.loadTools).toEqual(["mcp__db__query"]);
    const text = advice?.reminders?.join("\n") ?? "";
    expect(text).toContain("Files that may matter for this request:");
    expect(text).toContain('<file path="src/auth.ts">');
    expect(text).toContain("export const login");
    expect(text).not.toContain("TOP-SECRET");
    expect(text).not.toContain("ASKED-VALUE");
    expect(reads).toEqual(["src/auth.ts"]);
    // The model saw names, never a file's text.
    const asked = JSON.stringify(model.requests[0]?.messages);
    expect(asked).toContain("src/auth.ts");
    expect(asked).toContain("mcp__db__schema: Shows the schema");
    expect(asked).not.toContain("export const login");
  });

  it("cuts each file at 8,000 characters with a marker, and all of them at 16,000", async () => {
    const { ctx } = ctxWith(
      reply('{"files": ["src/big.ts", "src/big2.ts", "src/other.ts"], "tools": []}'),
    );
    const text = (await sessionContext.decide(first(), ctx))?.reminders?.join("\n") ?? "";
    expect(text.match(/Q/g)?.length).toBe(FILE_CHARS);
    expect(text.match(/Z/g)?.length).toBe(TOTAL_CHARS - FILE_CHARS);
    expect(text.match(/\[\.\.\. cut/g)).toHaveLength(2);
    expect(text).not.toContain("export const other");
  });

  it("abstains on a bad answer, a later turn, and asks once per session", async () => {
    const bad = ctxWith(reply('{"files": "src/auth.ts"}'));
    expect(await sessionContext.decide(first(), bad.ctx)).toBeUndefined();
    const none = ctxWith(reply('{"files": ["nope.ts"], "tools": ["nope"]}'));
    expect(await sessionContext.decide(first(), none.ctx)).toBeUndefined();
    const later = ctxWith();
    expect(await sessionContext.decide(first({ firstTurn: false }), later.ctx)).toBeUndefined();
    expect(later.model.requests).toHaveLength(0);
    const once = ctxWith(reply('{"files": ["src/auth.ts"], "tools": []}'));
    expect(await sessionContext.decide(first(), once.ctx)).toBeDefined();
    expect(await sessionContext.decide(first(), once.ctx)).toBeUndefined();
    expect(once.model.requests).toHaveLength(1);
  });
});

const after = (text: string, more: object = {}) => ({
  toolName: "Grep",
  input: { pattern: "login" },
  text,
  isError: false,
  prompt: "fix the login",
  look,
  seen: async () => false,
  ...more,
});
const GREP = [
  join("secret", "key.txt"),
  join("asked", "note.txt"),
  "src/auth.ts",
  "src/other.ts",
  "src/big.ts",
].join("\n");

describe("prefetch", () => {
  it("never hands over a file holding a known key format (the screen would not see it)", async () => {
    expect(await look("src/token.ts", PREFETCH_CHARS)).toBeUndefined();
    expect(await look("src/auth.ts", PREFETCH_CHARS)).toBeDefined();
  });

  it("lists a Grep result's paths, also from content lines", () => {
    expect(listedPaths("src/a.ts:3:x\nsrc/a.ts:9:y\nsrc/b.ts\n(Showing 2 of 3)")).toEqual([
      "src/a.ts",
      "src/b.ts",
    ]);
  });

  it("reads only listed paths the Read rules allow without asking, at most two, capped", async () => {
    const refused = ctxWith(reply('{"files": ["secret/key.txt", "asked/note.txt"]}'));
    expect(await prefetch.decide(after(GREP), refused.ctx)).toBeUndefined();
    expect(reads).toEqual([]);
    const { ctx } = ctxWith(reply('{"files": ["src/big.ts", "src/auth.ts", "src/other.ts"]}'));
    const advice = await prefetch.decide(after(GREP), ctx);
    expect(advice?.prefetched?.map((p) => p.path)).toEqual(["src/big.ts", "src/auth.ts"]);
    const [big, auth] = advice?.prefetched ?? [];
    expect(big?.text).toHaveLength(PREFETCH_CHARS);
    expect(big?.cut).toBe(true);
    expect(big?.stamp).toBeUndefined();
    expect(auth?.stamp).toBeDefined();
    expect(reads).toEqual(["src/big.ts", "src/auth.ts"]);
    expect(JSON.stringify(advice)).not.toContain("TOP-SECRET");
  });

  it("drops unlisted names, errors, one path and other tools; once per path per turn", async () => {
    const stray = ctxWith(reply('{"files": ["src/nope.ts", "/etc/passwd"]}'));
    expect(await prefetch.decide(after(GREP), stray.ctx)).toBeUndefined();
    const idle = ctxWith();
    expect(await prefetch.decide(after(GREP, { isError: true }), idle.ctx)).toBeUndefined();
    expect(await prefetch.decide(after("src/auth.ts"), idle.ctx)).toBeUndefined();
    expect(await prefetch.decide(after(GREP, { toolName: "Bash" }), idle.ctx)).toBeUndefined();
    expect(idle.model.requests).toHaveLength(0);
    const bad = ctxWith(reply("not json"));
    expect(await prefetch.decide(after(GREP), bad.ctx)).toBeUndefined();
    const seen = ctxWith(reply('{"files": ["src/auth.ts"]}'));
    const known = after(GREP, { seen: async () => true });
    expect(await prefetch.decide(known, seen.ctx)).toBeUndefined();
    const twice = ctxWith(reply('{"files": ["src/auth.ts"]}'), reply('{"files": ["src/auth.ts"]}'));
    expect(await prefetch.decide(after(GREP), twice.ctx)).toBeDefined();
    expect(await prefetch.decide(after(GREP), twice.ctx)).toBeUndefined();
  });
});
