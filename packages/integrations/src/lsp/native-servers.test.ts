import { writeFile } from "node:fs/promises";
import { plainFileReader, waitForProcessExit } from "@z-engine/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorsAfterWrite } from "./after-write.js";
import { LspManager } from "./manager.js";
import type { LspRequest } from "./operations.js";
import { queryLsp } from "./query.js";
import { testSpawner } from "../test-support/spawner.js";
import { groupMembers, project } from "./test-support/fixtures.js";
import {
  C_FILES,
  GO_FILES,
  type NativeServer,
  nativeServer,
  RUST_FILES,
} from "./test-support/native-servers.js";

/** A query (its path relative to the fixture) and the answer expected, whole or in part. */
interface Expected {
  readonly request: Omit<LspRequest, "path"> & { readonly path: string };
  readonly text?: string;
  readonly contains?: readonly string[];
}

/** One of Debian's language servers on a tiny fixture, and what it answers. */
interface ServerCase {
  readonly name: string;
  readonly command: string;
  /** Programs the server runs (the toolchain). */
  readonly needs: string[];
  readonly files: Record<string, string>;
  readonly queries: readonly (readonly [string, Expected])[];
  /** A file rewritten with a type error, and the error lines expected after the write. */
  readonly broken: Broken;
  /**
   * A type error written into the file the first query opened, right after it (the server
   * may still be diagnosing the files as they were), and the diagnostics then expected.
   */
  readonly early: Broken;
  /** Variables for the server besides this process's (a fresh HOME: a cold Go cache). */
  readonly env?: (root: string) => Record<string, string>;
}

interface Broken {
  readonly path: string;
  readonly text: string;
  readonly errors: string;
}

const CASES: readonly ServerCase[] = [
  {
    name: "clangd",
    command: "clangd",
    needs: [],
    files: C_FILES,
    queries: [
      // compile_flags.txt gives clangd no file list to index: it knows greet.c only once it
      // is open, so the definition asked from main.c is the header's declaration.
      [
        "definition by symbol",
        {
          request: { operation: "definition", path: "main.c", symbol: "add", line: 4 },
          text: "1 definition:\ngreet.h:3:5: int add(int a, int b);",
        },
      ],
      [
        "references",
        {
          request: { operation: "references", path: "greet.c", symbol: "add" },
          text: "3 references:\ngreet.c:3:5: int add(int a, int b) {\nmain.c:4:15: int total = add(1, 2);\nmain.c:5:10: return add(total, 3);",
        },
      ],
      [
        "hover",
        {
          request: { operation: "hover", path: "main.c", symbol: "add", line: 5 },
          contains: ["### function `add`", "int add(int a, int b)"],
        },
      ],
      [
        "documentSymbols",
        {
          request: { operation: "documentSymbols", path: "greet.c" },
          text: "function add (line 3)",
        },
      ],
    ],
    early: {
      path: "main.c",
      text: C_FILES["main.c"]?.replace("add(1, 2)", "add(1, 2, 3)") ?? "",
      errors:
        "main.c:4:25: error: Too many arguments to function call, expected 2, have 3 [clang typecheck_call_too_many_args]",
    },
    broken: {
      path: "greet.c",
      text: '#include "greet.h"\n\nint add(int a, int b) {\n  const char *s = "x";\n  return s * b;\n}\n',
      errors:
        "greet.c:5:12: error: Invalid operands to binary expression ('const char *' and 'int') [clang typecheck_invalid_operands]",
    },
  },
  {
    name: "gopls",
    command: "gopls",
    needs: ["go"],
    files: GO_FILES,
    queries: [
      [
        "definition by symbol",
        {
          request: { operation: "definition", path: "main.go", symbol: "Greet", line: 6 },
          text: "1 definition:\ngreet.go:4:6: func Greet(name string) string {",
        },
      ],
      [
        "references",
        {
          request: { operation: "references", path: "greet.go", symbol: "Greet" },
          text: '3 references:\ngreet.go:4:6: func Greet(name string) string {\nmain.go:6:14: fmt.Println(Greet("world"))\nmain.go:7:14: fmt.Println(Greet("again"))',
        },
      ],
      // Without the pkg.go.dev link gopls adds by default.
      [
        "hover",
        {
          request: { operation: "hover", path: "main.go", symbol: "Greet", line: 7 },
          text: "```go\nfunc Greet(name string) string\n```\n\nGreet says hello.",
        },
      ],
      [
        "documentSymbols",
        {
          request: { operation: "documentSymbols", path: "greet.go" },
          text: "function Greet (line 4)",
        },
      ],
      // Only names that hold the query, not gopls's fuzzy matches across the standard library.
      [
        "workspaceSymbols",
        {
          request: { operation: "workspaceSymbols", path: "main.go", query: "Greet" },
          text: "function Greet in example.com/hello: greet.go:4:6",
        },
      ],
    ],
    env: (root) => ({ HOME: `${root}/.home` }),
    early: {
      path: "main.go",
      text: GO_FILES["main.go"]?.replace('Greet("world")', "Greet(42)") ?? "",
      errors:
        "main.go:6:20: error: cannot use 42 (untyped int constant) as string value in argument to Greet [compiler IncompatibleAssign]",
    },
    broken: {
      path: "greet.go",
      text: "package main\n\n// Greet says hello.\nfunc Greet(name string) string {\n\treturn 42\n}\n",
      errors:
        "greet.go:5:9: error: cannot use 42 (untyped int constant) as string value in return statement [compiler IncompatibleAssign]",
    },
  },
  {
    name: "rust-analyzer",
    command: "rust-analyzer",
    needs: ["cargo"],
    files: RUST_FILES,
    // The first query comes while it loads the crate graph (its answers are then empty).
    queries: [
      [
        "definition by symbol",
        {
          request: { operation: "definition", path: "src/main.rs", symbol: "add", line: 4 },
          text: "1 definition:\nsrc/greet.rs:2:8: pub fn add(a: i32, b: i32) -> i32 {",
        },
      ],
      [
        "references",
        {
          request: { operation: "references", path: "src/greet.rs", symbol: "add" },
          text: "3 references:\nsrc/main.rs:4:24: let total = greet::add(1, 2);\nsrc/main.rs:5:20: let _ = greet::add(total, 3);\nsrc/greet.rs:2:8: pub fn add(a: i32, b: i32) -> i32 {",
        },
      ],
      [
        "hover",
        {
          request: { operation: "hover", path: "src/main.rs", symbol: "add", line: 5 },
          contains: ["pub fn add(a: i32, b: i32) -> i32", "Adds two numbers."],
        },
      ],
      [
        "documentSymbols",
        {
          request: { operation: "documentSymbols", path: "src/main.rs" },
          text: "module greet (line 1)\nfunction main (line 3)",
        },
      ],
    ],
    early: {
      path: "src/main.rs",
      text: RUST_FILES["src/main.rs"]?.replace("add(1, 2)", 'add(1, "2")') ?? "",
      errors: "src/main.rs:4:31: error: expected i32, found &'static str [rust-analyzer E0308]",
    },
    broken: {
      path: "src/greet.rs",
      text: '/// Adds two numbers.\npub fn add(a: i32, b: i32) -> i32 {\n    let s: i32 = "text";\n    s\n}\n',
      errors: "src/greet.rs:3:18: error: expected i32, found &'static str [rust-analyzer E0308]",
    },
  },
];

const found = new Map<string, NativeServer>();
for (const c of CASES) found.set(c.name, await nativeServer(c.command, c.needs));

for (const c of CASES) {
  const server = found.get(c.name);
  if (server?.env == null) {
    describe.skip(`${c.name} (${server?.env === null ? server.reason : "not looked up"})`, () => {});
    continue;
  }
  describe(`${c.name} (Debian's, against a tiny fixture)`, () => {
    let p: Awaited<ReturnType<typeof project>>;
    let manager: LspManager;
    const signal = new AbortController().signal;

    beforeAll(async () => {
      p = await project(c.files);
      const env = { ...server.env, ...c.env?.(p.root) };
      manager = new LspManager({
        root: p.root,
        env,
        spawn: testSpawner(p.root, env),
        files: plainFileReader(),
      });
    });
    afterAll(async () => {
      await manager.stopAll();
      await p.cleanup();
    });

    for (const [i, [what, expected]] of c.queries.entries()) {
      it(`answers ${what}`, async () => {
        const request = { ...expected.request, path: p.path(expected.request.path) };
        const answer = await queryLsp(manager, request, signal);
        if (expected.text !== undefined) expect(answer).toEqual({ ok: true, text: expected.text });
        for (const part of expected.contains ?? [])
          expect(answer.ok && answer.text).toContain(part);
      }, 30_000);
      if (i === 0)
        it("sees a type error written right after its first answer", async () => {
          const path = p.path(c.early.path);
          await writeFile(path, c.early.text);
          const answer = await queryLsp(manager, { operation: "diagnostics", path }, signal);
          await writeFile(path, c.files[c.early.path] ?? "");
          expect(answer).toEqual({ ok: true, text: c.early.errors });
        }, 30_000);
    }

    it("appends the type error after a write", async () => {
      const path = p.path(c.broken.path);
      await queryLsp(manager, { operation: "documentSymbols", path }, signal);
      await writeFile(path, c.broken.text);
      expect(await errorsAfterWrite(manager, path, signal, 10_000)).toBe(c.broken.errors);
    }, 30_000);

    it("leaves no process behind when stopped", async () => {
      const [status] = manager.status();
      expect(status?.state).toBe("running");
      const members = await groupMembers(status?.pid ?? -1);
      expect(members.length).toBeGreaterThanOrEqual(1);
      await manager.stopAll();
      for (const pid of members) expect(await waitForProcessExit(pid, 5000)).toBe(true);
    }, 30_000);
  });
}
