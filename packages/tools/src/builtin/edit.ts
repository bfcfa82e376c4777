import { z } from "zod";
import { realPath, titlePath } from "../paths.js";
import { defineTool } from "../tool.js";
import { describe } from "./describe.js";
import { applyEdit } from "./edit-core.js";
import { applyChange, previewChange, type Transform } from "./file-change.js";

const EditInput = z.strictObject({
  file_path: z.string().min(1).describe("The absolute path of the file to modify"),
  old_string: z.string().describe("The exact text to replace"),
  new_string: z.string().describe("The text to replace it with (must differ from old_string)"),
  replace_all: z
    .boolean()
    .optional()
    .describe("Replace every occurrence of old_string (default false)"),
});
type EditInput = z.infer<typeof EditInput>;

function transformOf(input: EditInput): Transform {
  return (current) => {
    if (!current && input.old_string !== "")
      return {
        ok: false,
        error: "File does not exist. To create it, use Write (or Edit with an empty old_string).",
      };
    return applyEdit(current?.text ?? "", input, current?.format.crlf ?? false);
  };
}

/** Edit: an exact, unique string replacement (or every one with replace_all), keeping line endings and encoding. */
export const editTool = defineTool({
  name: "Edit",
  description: describe(
    "Edit",
    "Performs an exact string replacement in a file. Read the file first: an edit of a file not read, or changed since it was read, is refused. old_string must match exactly once unless replace_all is set. Line endings and encoding are kept.",
  ),
  inputSchema: EditInput,
  action: async (input, ctx) => [
    { kind: "write", paths: [await realPath(input.file_path, ctx.shellSession.cwd)] },
  ],
  title: (input, ctx) => `Edit ${titlePath(input.file_path, ctx.shellSession.cwd, ctx.root)}`,
  preview: async (input, ctx) =>
    previewChange(await realPath(input.file_path, ctx.shellSession.cwd), transformOf(input), ctx),
  call: async (input, ctx) =>
    applyChange(
      await realPath(input.file_path, ctx.shellSession.cwd),
      transformOf(input),
      "Edited",
      ctx,
    ),
});
