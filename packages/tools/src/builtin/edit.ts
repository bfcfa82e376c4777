import { z } from "zod";
import { applyEdit } from "./edit-core.js";
import { lazySchema } from "../tool.js";
import { defineFileChangeTool, type Transform } from "./file-change.js";

const EditInput = lazySchema(() =>
  z.strictObject({
    file_path: z.string().min(1).describe("The absolute path of the file to modify"),
    old_string: z.string().describe("The exact text to replace"),
    new_string: z.string().describe("The text to replace it with (must differ from old_string)"),
    replace_all: z
      .boolean()
      .optional()
      .describe("Replace every occurrence of old_string (default false)"),
  }),
);
type EditInput = z.infer<ReturnType<typeof EditInput>>;

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
export const editTool = defineFileChangeTool({
  name: "Edit",
  fallbackDescription:
    "Performs an exact string replacement in a file. Read the file first: an edit of a file not read, or changed since it was read, is refused. old_string must match exactly once unless replace_all is set. Line endings and encoding are kept.",
  inputSchema: EditInput,
  transform: transformOf,
  verb: "Edited",
  title: (_input, path) => `Edit ${path}`,
});
