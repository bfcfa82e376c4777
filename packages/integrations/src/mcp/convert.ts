import type { ToolResultContent } from "@z-engine/protocol";

const IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);
type ImageType = "image/png" | "image/jpeg" | "image/gif" | "image/webp";

/**
 * Images one result may hand the model: providers refuse a request past 100 (Anthropic), so
 * one server answer must never fill that alone; the rest become a note.
 */
export const MAX_IMAGES_PER_RESULT = 20;
/** The largest image passed on, in decoded bytes (Anthropic refuses images over 5 MB). */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

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
      if (vision && data && IMAGE_TYPES.has(mime)) {
        if ((data.length * 3) / 4 <= MAX_IMAGE_BYTES)
          return { type: "image", mediaType: mime as ImageType, data };
        return { type: "text", text: `[Image (${mime}) not shown: larger than 5 MB]` };
      }
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

/** The first {@link MAX_IMAGES_PER_RESULT} images kept, the others replaced by one note. */
function capImages(content: ToolResultContent[]): ToolResultContent[] {
  let images = 0;
  const out = content.filter((c) => c.type !== "image" || ++images <= MAX_IMAGES_PER_RESULT);
  const left = images - MAX_IMAGES_PER_RESULT;
  if (left > 0)
    out.push({
      type: "text",
      text: `[${left} more image${left > 1 ? "s" : ""} not shown: at most ${MAX_IMAGES_PER_RESULT} per result]`,
    });
  return out;
}

/** JSON text as one canonical string (keys as written), or undefined when it is not JSON. */
function canonicalJson(text: string): string | undefined {
  const t = text.trim();
  if (!t.startsWith("{") && !t.startsWith("[")) return undefined;
  try {
    return JSON.stringify(JSON.parse(t));
  } catch {
    return undefined;
  }
}

/** Whether a text block already holds `value` as JSON (compact or pretty, whatever the spacing). */
function carries(content: readonly ToolResultContent[], value: unknown): boolean {
  const wanted = JSON.stringify(value);
  return content.some((c) => c.type === "text" && canonicalJson(c.text) === wanted);
}

/**
 * A `tools/call` result as content blocks: text as is, images as image blocks (when the model
 * reads images, at most {@link MAX_IMAGES_PER_RESULT} of at most 5 MB; else a note), resource
 * links and embedded resources as text, and `structuredContent` as JSON text when no text
 * block already holds the same JSON. Never throws.
 */
export function convertCallResult(
  result: unknown,
  vision: boolean,
): { content: ToolResultContent[]; isError: boolean } {
  if (!isRecord(result)) return { content: [{ type: "text", text: "" }], isError: false };
  const items = Array.isArray(result.content) ? result.content : [];
  const content = capImages(items.map((item) => convertItem(item, vision)));
  if (result.structuredContent !== undefined && !carries(content, result.structuredContent)) {
    const json = JSON.stringify(result.structuredContent, null, 2);
    content.push({ type: "text", text: `Structured content:\n${json}` });
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
