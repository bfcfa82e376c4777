import type { ArtifactRef, ArtifactSink } from "@z-engine/protocol";

/** Default number of characters a result keeps inline. */
export const DEFAULT_MAX_OUTPUT_CHARS = 30_000;
/** The most output kept in memory for the artifact; beyond it only the end is kept inline. */
export const MAX_CAPTURE_CHARS = 32 * 1024 * 1024;

/** What a finished command's output becomes. */
export interface CollectedOutput {
  readonly output: string;
  readonly truncated: boolean;
  readonly artifact: ArtifactRef | null;
}

/**
 * Accumulates a command's output: all of it up to {@link MAX_CAPTURE_CHARS} (for the
 * artifact) and always the most recent characters (for the inline end).
 */
export class OutputCollector {
  private readonly chunks: string[] = [];
  private captured = 0;
  private tail = "";
  private total = 0;

  constructor(private readonly maxChars: number = DEFAULT_MAX_OUTPUT_CHARS) {}

  get totalChars(): number {
    return this.total;
  }

  push(text: string): void {
    if (text.length === 0) return;
    this.total += text.length;
    if (this.captured < MAX_CAPTURE_CHARS) {
      const room = MAX_CAPTURE_CHARS - this.captured;
      const kept = text.length <= room ? text : text.slice(0, room);
      this.chunks.push(kept);
      this.captured += kept.length;
    }
    const keep = Math.ceil(this.maxChars / 2);
    this.tail = (this.tail + text).slice(-keep);
  }

  /**
   * The inline output: whole when short; else its start and end around a note naming the
   * artifact that holds the whole of it. Rejects only when the sink fails to store.
   */
  async finish(artifacts: ArtifactSink | undefined, name: string): Promise<CollectedOutput> {
    const all = this.chunks.join("");
    if (this.total <= this.maxChars) return { output: all, truncated: false, artifact: null };
    let artifact: ArtifactRef | null = null;
    if (artifacts) {
      const capped = this.total > this.captured;
      const body = capped
        ? `${all}\n[output cut after ${this.captured} of ${this.total} characters]\n`
        : all;
      artifact = await artifacts.put(name, body, { mediaType: "text/plain" });
    }
    const headChars = Math.floor(this.maxChars / 2);
    const cut = this.total - headChars - this.tail.length;
    const where = artifact
      ? `the whole output is in ${artifact.ref}`
      : "no artifact store was given, so it is lost";
    const note = `\n\n[... ${cut} characters cut from the middle; ${where} ...]\n\n`;
    return { output: all.slice(0, headChars) + note + this.tail, truncated: true, artifact };
  }
}
