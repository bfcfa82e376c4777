import { readFile, rm, writeFile } from "node:fs/promises";
import type { ProjectFileReader } from "@z-engine/protocol";
import { plainFileReader, waitForProcessExit } from "@z-engine/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorsAfterWrite } from "./after-write.js";
import { LspManager } from "./manager.js";
import { queryLsp } from "./query.js";
import { testSpawner } from "../test-support/spawner.js";
import { groupMembers, project, serverEnv, TS_FILES } from "./test-support/fixtures.js";

// Against the real typescript-language-server 5.3.0 with typescript 5.9.3.
describe("typescript-language-server", () => {
  let p: Awaited<ReturnType<typeof project>>;
  let manager: LspManager;
  const signal = new AbortController().signal;
  // The door the engine would hand over, refusing what its Read rules deny.
  const denied = new Set<string>();
  const plain = plainFileReader();
  const files: ProjectFileReader = {
    ...plain,
    readText: async (path, options) =>
      denied.has(path)
        ? { ok: false, path, reason: "denied", message: `${path}: reading it is denied` }
        : plain.readText(path, options),
  };

  beforeAll(async () => {
    p = await project(TS_FILES);
    manager = new LspManager({
      root: p.root,
      env: serverEnv(),
      spawn: testSpawner(p.root, serverEnv()),
      files,
    });
  });
  afterAll(async () => {
    await manager.stopAll();
    await p.cleanup();
  });

  it("goes to a definition in another file, by symbol name and line", async () => {
    const answer = await queryLsp(
      manager,
      { operation: "definition", path: p.path("src/main.ts"), symbol: "greet", line: 3 },
      signal,
    );
    expect(answer).toEqual({
      ok: true,
      text: "1 definition:\nsrc/greet.ts:1:17: export function greet(name: string): string {",
    });
  }, 60_000);

  it("reads files only through its door: a refused file is never quoted or sent", async () => {
    await writeFile(p.path("src/vault.ts"), 'export const token = "SECRET-MARKER";\n');
    await writeFile(
      p.path("src/uses-vault.ts"),
      'import { token } from "./vault.js";\nexport const t = token;\n',
    );
    denied.add(p.path("src/vault.ts"));
    const definition = await queryLsp(
      manager,
      { operation: "definition", path: p.path("src/uses-vault.ts"), symbol: "token", line: 2 },
      signal,
    );
    expect(definition).toEqual({ ok: true, text: "1 definition:\nsrc/vault.ts:1:14" });
    const symbols = await queryLsp(
      manager,
      { operation: "documentSymbols", path: p.path("src/vault.ts") },
      signal,
    );
    expect(symbols).toEqual({
      ok: false,
      error: `${p.path("src/vault.ts")}: reading it is denied`,
    });
  }, 60_000);

  it("lists references and shows hover text, by line and column", async () => {
    const refs = await queryLsp(
      manager,
      { operation: "references", path: p.path("src/greet.ts"), line: 1, column: 17 },
      signal,
    );
    expect(refs).toEqual({
      ok: true,
      text: [
        "4 references:",
        "src/greet.ts:1:17: export function greet(name: string): string {",
        'src/main.ts:1:10: import { greet } from "./greet.js";',
        'src/main.ts:3:32: export const message: string = greet("world");',
        'src/main.ts:4:13: console.log(greet("again"));',
      ].join("\n"),
    });
    const hover = await queryLsp(
      manager,
      { operation: "hover", path: p.path("src/main.ts"), line: 3, column: 33 },
      signal,
    );
    expect(hover.ok && hover.text).toContain("(alias) greet(name: string): string");
  }, 60_000);

  it("previews a rename without applying it", async () => {
    const before = await readFile(p.path("src/main.ts"), "utf8");
    const answer = await queryLsp(
      manager,
      {
        operation: "renamePreview",
        path: p.path("src/greet.ts"),
        symbol: "greet",
        newName: "welcome",
      },
      signal,
    );
    expect(answer.ok && answer.text.split("\n").slice(0, 3)).toEqual([
      "Rename preview to `welcome` (not applied): 4 edits in 2 files",
      "src/greet.ts",
      "  line 1:17: export function greet(name: string): string { → welcome",
    ]);
    expect(await readFile(p.path("src/main.ts"), "utf8")).toBe(before);
  }, 60_000);

  it("answers symbols and callers", async () => {
    const symbols = await queryLsp(
      manager,
      { operation: "documentSymbols", path: p.path("src/greet.ts") },
      signal,
    );
    expect(symbols).toEqual({ ok: true, text: "function greet (line 1)" });
    const callers = await queryLsp(
      manager,
      { operation: "incomingCalls", path: p.path("src/greet.ts"), symbol: "greet" },
      signal,
    );
    expect(callers.ok && callers.text).toContain("src/main.ts:");
    const found = await queryLsp(
      manager,
      { operation: "workspaceSymbols", path: p.path("src/main.ts"), query: "greet" },
      signal,
    );
    expect(found.ok && found.text).toContain("function greet: src/greet.ts:1:1");
  }, 60_000);

  it("finds implementations and outgoing calls", async () => {
    const shapes = p.path("src/shapes.ts");
    const impl = await queryLsp(
      manager,
      { operation: "implementation", path: shapes, symbol: "Shape" },
      signal,
    );
    expect(impl).toEqual({
      ok: true,
      text: "1 implementation:\nsrc/shapes.ts:9:14: export class Square implements Shape {",
    });
    const calls = await queryLsp(
      manager,
      { operation: "outgoingCalls", path: shapes, symbol: "area", line: 10 },
      signal,
    );
    expect(calls).toEqual({
      ok: true,
      text: "1 callee:\nfunction square: src/shapes.ts:5:10: function square(n: number): number {",
    });
  }, 60_000);

  it("closes a document whose file was deleted", async () => {
    const doomed = p.path("src/doomed.ts");
    await writeFile(doomed, "export const doomed = 1;\n");
    await queryLsp(manager, { operation: "documentSymbols", path: doomed }, signal);
    const live = await manager.serverFor(doomed);
    expect(live.docs.isOpen(doomed)).toBe(true);
    await rm(doomed);
    const after = await queryLsp(
      manager,
      { operation: "documentSymbols", path: p.path("src/greet.ts") },
      signal,
    );
    expect(after.ok).toBe(true);
    expect(live.docs.isOpen(doomed)).toBe(false);
  }, 60_000);

  it("appends fresh errors after a write, and sees files a command changed at the next query", async () => {
    const main = p.path("src/main.ts");
    await writeFile(
      main,
      'import { greet } from "./greet.js";\n\nexport const message: number = greet("x");\n',
    );
    const errors = await errorsAfterWrite(manager, main, signal);
    expect(errors).toBe(
      "src/main.ts:3:14: error: Type 'string' is not assignable to type 'number'. [typescript 2322]",
    );
    // Changed behind the engine's back (as a shell command would): the next query syncs it.
    await writeFile(
      main,
      'import { greet } from "./greet.js";\n\nexport const message: string = greet("x");\n',
    );
    const diagnostics = await queryLsp(manager, { operation: "diagnostics", path: main }, signal);
    expect(diagnostics).toEqual({ ok: true, text: "No diagnostics for src/main.ts." });
  }, 60_000);

  it("leaves no process behind when stopped", async () => {
    const [server] = manager.status();
    expect(server?.state).toBe("running");
    const members = await groupMembers(server?.pid ?? -1);
    expect(members.length).toBeGreaterThanOrEqual(2); // the server and its tsserver
    await manager.stopAll();
    for (const pid of members) expect(await waitForProcessExit(pid, 5000)).toBe(true);
  }, 60_000);
});
