import { z } from "zod";
import { applyEdits } from "./edit-core.js";
import { lazySchema } from "../tool.js";
import { defineFileChangeTool, type Transform } from "./file-change.js";

const MultiEditInput = lazySchema(() =>
  z.strictObject({
    file_path: z.string().min(1).describe("The absolute path of the file to modify"),
    edits: z
      .array(
        z.strictObject({
          old_string: z.string().describe("The exact text to replace"),
          new_string: z.string().describe("The text to replace it with"),
          replace_all: z.boolean().optional().describe("Replace every occurrence (default false)"),
        }),
      )
      .min(1)
      .describe("Edits applied in order, each to the result of the previous one; all or nothing"),
  }),
);
type MultiEditInput = z.infer<ReturnType<typeof MultiEditInput>>;

function transformOf(input: MultiEditInput): Transform {
  return (current) => {
    if (!current && input.edits[0]?.old_string !== "")
      return { ok: false, error: "File does not exist. To create it, use Write." };
    return applyEdits(current?.text ?? "", input.edits, current?.format.crlf ?? false);
  };
}

/** MultiEdit: several Edits of one file applied in order, all or nothing. */
export const multiEditTool = defineFileChangeTool({
  name: "MultiEdit",
  fallbackDescription:
    "Makes several exact string replacements in one file, in order, each applied to the result of the previous one. All or nothing: if any edit fails, the file is unchanged. The file must have been read first.",
  inputSchema: MultiEditInput,
  transform: transformOf,
  verb: "Edited",
  title: (input, path) => `Edit ${path} (${input.edits.length} edits)`,
});
