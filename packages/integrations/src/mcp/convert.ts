import type { ToolResultContent } from "@z-engine/protocol";

const IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);
type ImageType = "image/png" | "image/jpeg" | "image/gif" | "image/webp";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const str = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

function resourceText(resource: Record<string, unknown>): string {
  const uri = str(resource.uri) ?? "(no uri)";
  const text = str(resource.text);
  if (text !== undefined) return `Resource ${uri}:\n${text}`;
  const blob = str(resource.blob);
  const size = blob ? Math.floor((blob.length * 3) / 4) : 0;
  return `[Binary resource ${uri} (${str(resource.mimeType) ?? "unknown type"}, about ${size} bytes) not shown]`;
}

/** One MCP content item as blocks the model reads; audio and unknown kinds become a short note. */
function convertItem(item: unknown, vision: boolean): ToolResultContent {
  if (!isRecord(item)) return { type: "text", text: "[unreadable content item]" };
  switch (item.type) {
    case "text":
      return { type: "text", text: str(item.text) ?? "" };
    case "image": {
      const mime = str(item.mimeType) ?? "";
      const data = str(item.data);
      if (vision && data && IMAGE_TYPES.has(mime))
        return { type: "image", mediaType: mime as ImageType, data };
      return { type: "text", text: `[Image (${mime || "unknown type"}) not shown]` };
    }
    case "resource_link": {
      const parts = [`Resource link: ${str(item.name) ?? ""} <${str(item.uri) ?? ""}>`];
      if (str(item.mimeType)) parts.push(`(${str(item.mimeType)})`);
      if (str(item.description)) parts.push(`- ${str(item.description)}`);
      return { type: "text", text: parts.join(" ") };
    }
    case "resource":
      return { type: "text", text: isRecord(item.resource) ? resourceText(item.resource) : "" };
    case "audio":
      return { type: "text", text: `[Audio (${str(item.mimeType) ?? "unknown type"}) not shown]` };
    default:
      return { type: "text", text: `[Unsupported content of type ${String(item.type)}]` };
  }
}

/**
 * A `tools/call` result as content blocks: text as is, images as image blocks (when the model
 * reads images; else a note), resource links and embedded resources as text, and
 * `structuredContent` as JSON text when the content does not already carry it. Never throws.
 */
export function convertCallResult(
  result: unknown,
  vision: boolean,
): { content: ToolResultContent[]; isError: boolean } {
  if (!isRecord(result)) return { content: [{ type: "text", text: "" }], isError: false };
  const items = Array.isArray(result.content) ? result.content : [];
  const content = items.map((item) => convertItem(item, vision));
  if (result.structuredContent !== undefined) {
    const json = JSON.stringify(result.structuredContent, null, 2);
    const already = content.some((c) => c.type === "text" && c.text.trim() === json.trim());
    if (!already) content.push({ type: "text", text: `Structured content:\n${json}` });
  }
  if (result.toolResult !== undefined && content.length === 0)
    content.push({ type: "text", text: JSON.stringify(result.toolResult, null, 2) });
  if (content.length === 0) content.push({ type: "text", text: "(no content)" });
  return { content, isError: result.isError === true };
}

/** A `resources/read` result as text blocks (binary contents become a note). Never throws. */
export function convertReadResult(result: unknown): ToolResultContent[] {
  const contents = isRecord(result) && Array.isArray(result.contents) ? result.contents : [];
  const blocks = contents.map(
    (c): ToolResultContent => ({ type: "text", text: isRecord(c) ? resourceText(c) : "" }),
  );
  return blocks.length > 0 ? blocks : [{ type: "text", text: "(the resource is empty)" }];
}
