import { mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { LspPort, LspQuery } from "../ports.js";
import { runTool, toolActions } from "../run-tool.js";
import { testCtx, textOf } from "../test-support/ctx.js";
import { textOutput } from "../tool-output.js";
import { editTool } from "./edit.js";
import { lspTool } from "./lsp.js";
import { readTool } from "./read.js";
import { writeTool } from "./write.js";

// The engine's LspPort is tested against real servers in the engine; here a recording port
// shows what the tools hand it and what they do with its answers.
function recordingPort(errors: string | null) {
  const queries: LspQuery[] = [];
  const written: string[] = [];
  const port: LspPort = {
    query: async (q) => {
      queries.push(q);
      return textOutput("1 definition:\nsrc/a.ts:1:1: x");
    },
    diagnosticsAfterWrite: async (path) => {
      written.push(path);
      return errors;
    },
  };
  return { port, queries, written };
}

let dir: string;
beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), "lsp-tool-")));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe("LSP tool", () => {
  it("is a read of the file and passes the position on", async () => {
    const { port, queries } = recordingPort(null);
    const ctx = testCtx({ root: dir, ports: { lsp: port } });
    const input = { operation: "definition", file_path: "a.ts", line: 3, character: 7 };
    expect(await toolActions(lspTool, input, ctx)).toEqual({
      ok: true,
      input,
      actions: [{ kind: "read", paths: [join(dir, "a.ts")] }],
    });
    const out = await runTool(lspTool, input, ctx);
    expect(textOf(out)).toBe("1 definition:\nsrc/a.ts:1:1: x");
    expect(queries).toEqual([
      { operation: "definition", filePath: join(dir, "a.ts"), line: 3, character: 7 },
    ]);
    expect(lspTool.requires).toEqual(["lsp"]);
    expect(lspTool.isReadOnly(input as never)).toBe(true);
  });

  it("refuses an unknown operation", async () => {
    const { port } = recordingPort(null);
    const out = await runTool(
      lspTool,
      { operation: "format", file_path: "a.ts" },
      testCtx({ root: dir, ports: { lsp: port } }),
    );
    expect(out.isError).toBe(true);
  });
});

describe("errors after a write", () => {
  it("appends the port's errors to Write and Edit results", async () => {
    const { port, written } = recordingPort("a.ts:1:7: error: Type 'string' is not assignable");
    const ctx = testCtx({ root: dir, ports: { lsp: port } });
    const path = join(dir, "a.ts");
    const wrote = await runTool(writeTool, { file_path: path, content: "const x = 1;\n" }, ctx);
    expect(textOf(wrote)).toBe(
      `Created ${path} (+1 -0)\n\nThe language server reports errors in this file now:\na.ts:1:7: error: Type 'string' is not assignable`,
    );
    const edited = await runTool(
      editTool,
      { file_path: path, old_string: "1", new_string: '"1"' },
      ctx,
    );
    expect(textOf(edited)).toContain("The language server reports errors in this file now:");
    expect(written).toEqual([path, path]);
  });

  it("adds nothing when the port has nothing, and never asks after a failed write", async () => {
    const { port, written } = recordingPort(null);
    const ctx = testCtx({ root: dir, ports: { lsp: port } });
    const path = join(dir, "b.ts");
    await writeFile(path, "let y = 2;\n");
    const refused = await runTool(
      editTool,
      { file_path: path, old_string: "2", new_string: "3" },
      ctx,
    );
    expect(refused.isError).toBe(true);
    await runTool(readTool, { file_path: path }, ctx);
    const edited = await runTool(
      editTool,
      { file_path: path, old_string: "2", new_string: "3" },
      ctx,
    );
    expect(textOf(edited)).toBe(`Edited ${path} (+1 -1)`);
    expect(written).toEqual([path]);
  });
});
