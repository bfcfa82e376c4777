import { z } from "zod";
import { wholeChange } from "../text-change.js";
import { lazySchema } from "../tool.js";
import { defineFileChangeTool, type Transform } from "./file-change.js";

const WriteInput = lazySchema(() =>
  z.strictObject({
    file_path: z.string().min(1).describe("The absolute path of the file to write"),
    content: z.string().describe("The content to write"),
  }),
);
type WriteInput = z.infer<ReturnType<typeof WriteInput>>;

function transformOf(input: WriteInput): Transform {
  return (current) => {
    // A CRLF file keeps CRLF: the content is held with LF like every decoded text.
    const text = current?.format.crlf ? input.content.replaceAll("\r\n", "\n") : input.content;
    return { ok: true, change: wholeChange(current?.text ?? "", text) };
  };
}

/** Write: creates or overwrites a file; overwriting needs a prior Read of it, unchanged since. */
export const writeTool = defineFileChangeTool({
  name: "Write",
  fallbackDescription:
    "Writes a file, creating parent folders as needed. Overwriting an existing file requires reading it first (and it must not have changed since). Prefer Edit for changes to existing files.",
  inputSchema: WriteInput,
  transform: transformOf,
  verb: "Wrote",
  title: (_input, path) => `Write ${path}`,
});
