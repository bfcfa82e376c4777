import { stat } from "node:fs/promises";
import { z } from "zod";
import type { ToolCtx } from "../ctx.js";
import { realPath } from "../paths.js";
import { globWithJs, globWithRipgrep } from "../search/glob-search.js";
import { findRipgrep } from "../search/ripgrep.js";
import { defineTool } from "../tool.js";
import { errorOutput, textOutput, type ToolOutput } from "../tool-output.js";
import { describe } from "./describe.js";

const GlobInput = z.strictObject({
  pattern: z.string().min(1).describe('The glob to match, e.g. "**/*.ts" or "src/**/*.test.ts"'),
  path: z.string().optional().describe("The folder to search (default: the current folder)"),
});
type GlobInput = z.infer<typeof GlobInput>;

async function glob(input: GlobInput, ctx: ToolCtx): Promise<ToolOutput> {
  const folder = await realPath(input.path ?? ".", ctx.shellSession.cwd);
  const info = await stat(folder).catch(() => null);
  if (!info?.isDirectory()) return errorOutput(`Not a folder: ${folder}`);
  const rg = await findRipgrep(ctx.search.rgPath);
  const result = rg
    ? await globWithRipgrep(rg, input.pattern, folder, ctx.signal)
    : await globWithJs(input.pattern, folder, ctx.signal);
  if (!result.ok) return errorOutput(result.error);
  if (result.paths.length === 0) return textOutput("No files found");
  const max = ctx.limits.globMaxResults;
  const shown = result.paths.slice(0, max);
  const truncated = result.paths.length > max;
  const note = truncated
    ? `\n(Showing the ${max} newest of ${result.paths.length} files. Use a more specific pattern or path.)`
    : "";
  return textOutput(shown.join("\n") + note, {
    display: { kind: "files", paths: shown, truncated },
  });
}

/** Glob: files matching a pattern, ignore-aware, newest first (`rg --files --sortr modified` semantics). */
export const globTool = defineTool({
  name: "Glob",
  description: describe(
    "Glob",
    'Finds files by glob pattern ("**/*.ts", "src/**/*.tsx"), newest first. Respects .gitignore and skips hidden files. A pattern without a slash matches file names at any depth.',
  ),
  inputSchema: GlobInput,
  isReadOnly: () => true,
  action: async (input, ctx) => [
    { kind: "read", paths: [await realPath(input.path ?? ".", ctx.shellSession.cwd)] },
  ],
  title: (input) => `Glob ${input.pattern}${input.path ? ` in ${input.path}` : ""}`,
  call: glob,
});
