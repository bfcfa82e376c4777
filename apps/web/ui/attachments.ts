// Images a prompt carries: read from pasted, dropped or picked files into the engine's image
// blocks (base64), with what went wrong said in words.
import type { ImageBlock } from "@z-engine/protocol";

/** An image waiting in the composer: the block to send and a URL to show it. */
export interface Attachment {
  readonly name: string;
  readonly block: ImageBlock;
  readonly url: string;
}

const TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);
/** Per image; the providers' limits are about 5 MB. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
export const MAX_IMAGES = 8;

function base64Of(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = String(reader.result);
      resolve(url.slice(url.indexOf(",") + 1));
    };
    reader.onerror = () => reject(reader.error ?? new Error("cannot read the file"));
    reader.readAsDataURL(file);
  });
}

/**
 * Reads image files into attachments. Files that are not PNG, JPEG, GIF or WebP, or are over
 * 5 MB, are skipped and named in `problems`.
 */
export async function readImages(
  files: Iterable<File>,
): Promise<{ attachments: Attachment[]; problems: string[] }> {
  const attachments: Attachment[] = [];
  const problems: string[] = [];
  for (const file of files) {
    if (!TYPES.has(file.type)) {
      problems.push(`${file.name || "that file"} is not a PNG, JPEG, GIF or WebP image`);
      continue;
    }
    if (file.size > MAX_IMAGE_BYTES) {
      problems.push(`${file.name || "that image"} is over 5 MB`);
      continue;
    }
    const data = await base64Of(file);
    const mediaType = file.type as ImageBlock["mediaType"];
    attachments.push({
      name: file.name || "pasted image",
      block: { type: "image", mediaType, data },
      url: `data:${mediaType};base64,${data}`,
    });
  }
  return { attachments, problems };
}
