import { z } from "zod";
import type { ToolCtx } from "../ctx.js";
import { spillIfLong } from "../output-spill.js";
import { planRead } from "../planned-target.js";
import { formatGrep } from "../search/grep-format.js";
import { grepWithJs } from "../search/grep-js.js";
import { type GrepQuery, rejectUnsupported } from "../search/grep-query.js";
import { grepWithRipgrep } from "../search/grep-rg.js";
import { findRipgrep } from "../search/ripgrep.js";
import { hardLinkNote, withoutHardLinked } from "../search/hard-links.js";
import { leftOutNote, searchRoot, withoutDenied } from "../search/search-root.js";
import { defineTool, lazySchema } from "../tool.js";
import { builtinInputJsonSchema } from "./input-json-schemas.js";
import { errorOutput, textOutput, type ToolOutput } from "../tool-output.js";
import { describe } from "./describe.js";

const count = () => z.number().int().min(0);
const GrepInput = lazySchema(() =>
  z.strictObject({
    pattern: z.string().min(1).describe("The regular expression to search for (ripgrep syntax)"),
    path: z.string().optional().describe("File or folder to search (default: the current folder)"),
    glob: z
      .string()
      .optional()
      .describe('Only files matching this glob, e.g. "*.ts" or "*.{ts,tsx}"'),
    type: z
      .string()
      .optional()
      .describe("Only files of this type (ripgrep --type), e.g. js, py, rust"),
    output_mode: z
      .enum(["content", "files_with_matches", "count"])
      .optional()
      .describe(
        '"content" shows matching lines, "files_with_matches" lists files (default), "count" counts matching lines',
      ),
    "-i": z.boolean().optional().describe("Case-insensitive search"),
    "-n": z.boolean().optional().describe("Show line numbers (content mode; default true)"),
    "-A": count().optional().describe("Lines after each match (content mode)"),
    "-B": count().optional().describe("Lines before each match (content mode)"),
    "-C": count().optional().describe("Lines before and after each match (content mode)"),
    multiline: z.boolean().optional().describe("Let patterns span lines; . matches newlines"),
    head_limit: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe("Keep only the first N entries or lines"),
    offset: count().optional().describe("Skip the first N entries or lines"),
  }),
);
type GrepInput = z.infer<ReturnType<typeof GrepInput>>;

async function buildQuery(input: GrepInput, ctx: ToolCtx): Promise<GrepQuery | string> {
  const root = await searchRoot(input.path, ctx);
  if ("error" in root) return root.error;
  const mode = input.output_mode ?? "files_with_matches";
  const content = mode === "content";
  return {
    pattern: input.pattern,
    searchPath: root.path,
    isFile: !root.isFolder,
    glob: input.glob,
    type: input.type,
    caseInsensitive: input["-i"] ?? false,
    multiline: input.multiline ?? false,
    mode,
    before: content ? (input["-B"] ?? input["-C"] ?? 0) : 0,
    after: content ? (input["-A"] ?? input["-C"] ?? 0) : 0,
  };
}

async function grep(input: GrepInput, ctx: ToolCtx): Promise<ToolOutput> {
  const query = await buildQuery(input, ctx);
  if (typeof query === "string") return errorOutput(query);
  const unsupported = rejectUnsupported(query.pattern);
  if (unsupported) return errorOutput(unsupported);
  const rg = await findRipgrep(ctx.search.rgPath);
  const result = rg
    ? await grepWithRipgrep(rg, query, ctx.signal)
    : await grepWithJs(query, ctx.signal);
  if (!result.ok) return errorOutput(result.error);
  const allowed = withoutDenied(result.files, (file) => file.path, ctx);
  const { kept, left: linked } = await withoutHardLinked(allowed.kept, (file) => file.path, ctx);
  const left = allowed.left;
  const text = formatGrep([...kept], query, {
    offset: input.offset ?? 0,
    headLimit: input.head_limit,
    lineNumbers: input["-n"] ?? true,
    maxLineChars: ctx.limits.maxLineChars,
  });
  const spilled = await spillIfLong(
    text + leftOutNote(left) + hardLinkNote(linked),
    "grep-output.txt",
    ctx.limits.maxOutputChars,
    ctx.artifacts,
  );
  return textOutput(spilled.text, { artifacts: spilled.artifact ? [spilled.artifact] : [] });
}

/** Grep: ripgrep (bundled or on the PATH), else a JS engine with the same options and output. */
export const grepTool = defineTool({
  name: "Grep",
  description: describe(
    "Grep",
    'Searches file contents with ripgrep regular expressions. Filter with glob or type; output_mode is "files_with_matches" (default), "content" (with -A/-B/-C context, -n line numbers) or "count". Respects .gitignore. Use multiline for patterns spanning lines. Look-around and backreferences are not supported.',
  ),
  inputSchema: GrepInput,
  inputJsonSchema: builtinInputJsonSchema("Grep"),
  isReadOnly: () => true,
  action: async (input, ctx) => [await planRead(input.path ?? ".", ctx)],
  title: (input) => `Grep ${JSON.stringify(input.pattern)}${input.path ? ` in ${input.path}` : ""}`,
  call: grep,
});
