import type { ContentBlock } from "@z-engine/protocol";

/** The text an image becomes for a model that cannot read images. */
export const IMAGE_PLACEHOLDER = "[image omitted: the current model cannot read images]";

const placeholder = { type: "text" as const, text: IMAGE_PLACEHOLDER };

function withoutImages(content: readonly ContentBlock[]): ContentBlock[] | undefined {
  let changed = false;
  const out = content.map((block): ContentBlock => {
    if (block.type === "image") {
      changed = true;
      return placeholder;
    }
    if (block.type === "toolResult" && block.content.some((c) => c.type === "image")) {
      changed = true;
      return {
        ...block,
        content: block.content.map((c) => (c.type === "image" ? placeholder : c)),
      };
    }
    return block;
  });
  return changed ? out : undefined;
}

/**
 * The messages with every image (in a user message or inside a tool result) replaced by a
 * text placeholder, for a text-only model. Messages without images are returned as they
 * are, so the prefix stays byte-stable round after round. Pure.
 */
export function replaceImages<M extends { readonly content: readonly ContentBlock[] }>(
  messages: readonly M[],
): M[] {
  return messages.map((message) => {
    const content = withoutImages(message.content);
    return content ? { ...message, content } : message;
  });
}
