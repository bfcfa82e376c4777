import { LSP_OPERATIONS } from "@z-engine/protocol";
import { z } from "zod";
import { realPath, titlePath } from "../paths.js";
import { defineTool, lazySchema } from "../tool.js";
import { builtinInputJsonSchema } from "./input-json-schemas.js";
import { errorOutput } from "../tool-output.js";
import { describe } from "./describe.js";

const LspInput = lazySchema(() =>
  z.strictObject({
    operation: z.enum(LSP_OPERATIONS).describe("What to ask the language server"),
    file_path: z
      .string()
      .min(1)
      .describe("The absolute path of the file (it also picks the language server)"),
    line: z.number().int().min(1).optional().describe("1-based line of the position"),
    character: z.number().int().min(1).optional().describe("1-based column of the position"),
    symbol: z
      .string()
      .min(1)
      .optional()
      .describe("A name in the file to use as the position (with line: the name on that line)"),
    query: z.string().optional().describe("workspaceSymbols: the text to search for"),
    new_name: z.string().min(1).optional().describe("renamePreview: the new name"),
  }),
);

/** LSP: asks the file's language server; a read of the file for the permission rules. */
export const lspTool = defineTool({
  name: "LSP",
  description: describe(
    "LSP",
    "Asks the language server about code: definition, references, hover, implementation, incomingCalls, outgoingCalls, documentSymbols, workspaceSymbols, diagnostics, renamePreview (nothing is written). Give file_path and a 1-based line and character, or a symbol name.",
  ),
  inputSchema: LspInput,
  inputJsonSchema: builtinInputJsonSchema("LSP"),
  requires: ["lsp"],
  isReadOnly: () => true,
  action: async (input, ctx) => [
    { kind: "read", paths: [await realPath(input.file_path, ctx.shellSession.cwd)] },
  ],
  title: (input, ctx) =>
    `LSP ${input.operation} ${titlePath(input.file_path, ctx.shellSession.cwd, ctx.root)}${input.symbol ? ` ${input.symbol}` : input.line ? `:${input.line}` : ""}`,
  call: async (input, ctx) => {
    const port = ctx.ports.lsp;
    if (!port) return errorOutput("No language servers are available in this session.");
    return port.query(
      {
        operation: input.operation,
        filePath: await realPath(input.file_path, ctx.shellSession.cwd),
        ...(input.line !== undefined ? { line: input.line } : {}),
        ...(input.character !== undefined ? { character: input.character } : {}),
        ...(input.symbol !== undefined ? { symbol: input.symbol } : {}),
        ...(input.query !== undefined ? { query: input.query } : {}),
        ...(input.new_name !== undefined ? { newName: input.new_name } : {}),
      },
      ctx.signal,
    );
  },
});
