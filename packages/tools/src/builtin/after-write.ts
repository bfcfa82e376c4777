import type { ToolCtx } from "../ctx.js";
import type { ToolOutput } from "../tool-output.js";

/**
 * A successful write's output with the language server's fresh errors for the file
 * appended (the LspPort bounds the wait and leaves warnings out). Unchanged when the call
 * failed, no port is present or there is nothing to add. Never rejects.
 */
export async function withDiagnostics(
  output: ToolOutput,
  path: string,
  ctx: ToolCtx,
): Promise<ToolOutput> {
  const port = ctx.ports.lsp;
  if (!port || output.isError || output.writtenPaths.length === 0) return output;
  const errors = await port.diagnosticsAfterWrite(path, ctx.signal).catch(() => null);
  if (!errors) return output;
  const note = `\n\nThe language server reports errors in this file now:\n${errors}`;
  const [first, ...rest] = output.content;
  if (first?.type !== "text") return output;
  return { ...output, content: [{ type: "text", text: first.text + note }, ...rest] };
}
