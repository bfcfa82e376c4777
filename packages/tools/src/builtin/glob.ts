import { z } from "zod";
import type { ToolCtx } from "../ctx.js";
import { planTarget } from "../planned-target.js";
import { globWithJs, globWithRipgrep } from "../search/glob-search.js";
import { findRipgrep } from "../search/ripgrep.js";
import { firstAllowed, leftOutNote, searchRoot } from "../search/search-root.js";
import { defineTool, lazySchema } from "../tool.js";
import { builtinInputJsonSchema } from "./input-json-schemas.js";
import { errorOutput, textOutput, type ToolOutput } from "../tool-output.js";
import { describe } from "./describe.js";

const GlobInput = lazySchema(() =>
  z.strictObject({
    pattern: z.string().min(1).describe('The glob to match, e.g. "**/*.ts" or "src/**/*.test.ts"'),
    path: z.string().optional().describe("The folder to search (default: the current folder)"),
  }),
);
type GlobInput = z.infer<ReturnType<typeof GlobInput>>;

async function glob(input: GlobInput, ctx: ToolCtx): Promise<ToolOutput> {
  const root = await searchRoot(input.path, ctx);
  if ("error" in root) return errorOutput(root.error);
  if (!root.isFolder) return errorOutput(`Not a folder: ${root.path}`);
  const folder = root.path;
  const rg = await findRipgrep(ctx.search.rgPath);
  const result = rg
    ? await globWithRipgrep(rg, input.pattern, folder, ctx.signal)
    : await globWithJs(input.pattern, folder, ctx.signal);
  if (!result.ok) return errorOutput(result.error);
  const max = ctx.limits.globMaxResults;
  // With Read deny rules, only the newest paths are checked, until one more than is shown
  // passes: checking every path of a large tree cost a third of the search.
  const { kept, left, checked } = firstAllowed(result.paths, max + 1, ctx);
  if (kept.length === 0) return textOutput(`No files found${leftOutNote(left)}`);
  const shown = kept.slice(0, max);
  const truncated = kept.length > max;
  const total = checked === result.paths.length ? `${kept.length}` : `more than ${max}`;
  const note =
    (truncated
      ? `\n(Showing the ${max} newest of ${total} files. Use a more specific pattern or path.)`
      : "") + leftOutNote(left);
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
  inputJsonSchema: builtinInputJsonSchema("Glob"),
  isReadOnly: () => true,
  action: async (input, ctx) => [
    { kind: "read", paths: await planTarget(input.path ?? ".", ctx, "read") },
  ],
  title: (input) => `Glob ${input.pattern}${input.path ? ` in ${input.path}` : ""}`,
  call: glob,
});
