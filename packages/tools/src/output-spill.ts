import type { ArtifactRef, ArtifactSink } from "@z-engine/protocol";

/** Text kept inline, and the artifact holding all of it when it was too long. */
export interface SpilledText {
  readonly text: string;
  readonly artifact: ArtifactRef | null;
}

/**
 * Keeps `text` inline when it fits in `maxChars`; else stores it whole in the sink and
 * returns its start with a pointer naming the artifact. Rejects only when the sink does.
 */
export async function spillIfLong(
  text: string,
  name: string,
  maxChars: number,
  artifacts: ArtifactSink,
): Promise<SpilledText> {
  if (text.length <= maxChars) return { text, artifact: null };
  const artifact = await artifacts.put(name, text);
  let cut = text.slice(0, maxChars);
  const lastNewline = cut.lastIndexOf("\n");
  if (lastNewline > maxChars / 2) cut = cut.slice(0, lastNewline);
  const note = `\n\n[Output truncated: ${text.length} characters in all; the full output is stored as ${artifact.ref}${artifact.truncated ? " (itself cut at the sink's limit)" : ""}.]`;
  return { text: cut + note, artifact };
}
