import type { ArtifactRef, ToolResultContent } from "@z-engine/protocol";
import type { ToolCtx } from "../ctx.js";
import { spillIfLong } from "../output-spill.js";
import type { ToolOutput } from "../tool-output.js";

/**
 * An MCP output made to fit the model's share: each text block kept inline up to the limit
 * and the rest stored as an artifact; when many short blocks add up past the limit, they are
 * joined into one text stored the same way. Images and other blocks pass as they are (the
 * client already caps them per result). Rejects only when the artifact sink does.
 */
export async function boundMcpOutput(
  output: ToolOutput,
  name: string,
  ctx: ToolCtx,
): Promise<ToolOutput> {
  const max = ctx.limits.maxOutputChars;
  let total = 0;
  let long = false;
  for (const block of output.content)
    if (block.type === "text") {
      total += block.text.length;
      if (block.text.length > max) long = true;
    }
  // The common case, every block short and few: the output as it came, without copying.
  if (!long && total <= max) return output;
  const artifacts: ArtifactRef[] = [...output.artifacts];
  const spill = async (text: string): Promise<ToolResultContent> => {
    const spilled = await spillIfLong(text, name, max, ctx.artifacts);
    if (spilled.artifact) artifacts.push(spilled.artifact);
    return { type: "text", text: spilled.text };
  };
  const content: ToolResultContent[] = [];
  if (!long) {
    // Many short blocks: one text holding them all, then the other blocks.
    const texts = output.content.flatMap((b) => (b.type === "text" ? [b.text] : []));
    content.push(await spill(texts.join("\n")));
    content.push(...output.content.filter((b) => b.type !== "text"));
  } else
    for (const block of output.content)
      content.push(block.type === "text" ? await spill(block.text) : block);
  return { ...output, content, artifacts };
}
