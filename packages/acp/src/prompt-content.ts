import { fileURLToPath } from "node:url";
import type { ContentBlock } from "@agentclientprotocol/sdk";
import type { ImageBlock } from "@z-engine/protocol";

/** What one `session/prompt` becomes: the user message's text and its images. */
export interface PromptSubmission {
  readonly text: string;
  readonly images: ImageBlock[];
}

const IMAGE_TYPES: ReadonlySet<string> = new Set([
  "image/png",
  "image/jpeg",
  "image/gif",
  "image/webp",
]);

/** A `file://` URI as a path, else the URI as it is. */
function pathOf(uri: string): string {
  if (!uri.startsWith("file://")) return uri;
  try {
    return fileURLToPath(uri);
  } catch {
    return uri;
  }
}

function imageOf(mimeType: string, data: string): ImageBlock | undefined {
  return IMAGE_TYPES.has(mimeType)
    ? { type: "image", mediaType: mimeType as ImageBlock["mediaType"], data }
    : undefined;
}

/**
 * The prompt's blocks as the engine's user message: text in order; a resource link as `@path`
 * (a file) or its URI, so the model can read it with its tools; an embedded text resource as
 * a `<context ref="...">` block after the text (Claude Code's and Gemini CLI's form); images
 * (and image resources) as image blocks of the four types the models take. Anything else
 * (audio, other binary resources, unknown blocks) becomes a short note naming what was left
 * out. Pure; never throws.
 */
export function promptSubmission(blocks: readonly ContentBlock[]): PromptSubmission {
  const parts: string[] = [];
  const context: string[] = [];
  const images: ImageBlock[] = [];
  for (const block of blocks) {
    switch (block.type) {
      case "text":
        parts.push(block.text);
        break;
      case "resource_link": {
        const path = pathOf(block.uri);
        parts.push(path === block.uri ? block.uri : `@${path}`);
        break;
      }
      case "image": {
        const image = imageOf(block.mimeType, block.data);
        if (image) images.push(image);
        else parts.push(`(an image of type ${block.mimeType} was left out)`);
        break;
      }
      case "resource": {
        const r = block.resource;
        if ("text" in r) {
          context.push(`<context ref="${pathOf(r.uri)}">\n${r.text}\n</context>`);
          break;
        }
        const image = r.mimeType ? imageOf(r.mimeType, r.blob) : undefined;
        if (image) images.push(image);
        else parts.push(`(the binary resource ${r.uri} was left out)`);
        break;
      }
      default:
        parts.push(`(a ${(block as { type: string }).type} block was left out)`);
    }
  }
  const text = joinParts(parts);
  return { text: context.length > 0 ? `${text}\n\n${context.join("\n")}` : text, images };
}

/** Text blocks joined as typed: a space between a mention and its neighbours. */
function joinParts(parts: readonly string[]): string {
  let out = "";
  for (const part of parts) {
    if (out !== "" && !/\s$/.test(out) && !/^\s/.test(part)) out += " ";
    out += part;
  }
  return out;
}
