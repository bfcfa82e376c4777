import type { ArtifactRef, ArtifactSink } from "@z-engine/protocol";

/** What a command result keeps inline by default, as the host's shells do. */
const DEFAULT_MAX_CHARS = 30_000;

/**
 * A terminal's output as a command result keeps it: whole when short, else its start and end
 * around a note naming the artifact that holds all of it (the host's shells' rule). Rejects
 * only when the sink fails to store.
 */
export async function cutOutput(
  output: string,
  maxChars: number = DEFAULT_MAX_CHARS,
  artifacts: ArtifactSink | undefined,
): Promise<{ output: string; truncated: boolean; artifact: ArtifactRef | null }> {
  if (output.length <= maxChars) return { output, truncated: false, artifact: null };
  const artifact = artifacts
    ? await artifacts.put("command-output.txt", output, { mediaType: "text/plain" })
    : null;
  const head = Math.floor(maxChars / 2);
  const tail = output.slice(-Math.ceil(maxChars / 2));
  const where = artifact
    ? `the whole output is in ${artifact.ref}`
    : "no artifact store was given, so it is lost";
  const note = `\n\n[... ${output.length - head - tail.length} characters cut from the middle; ${where} ...]\n\n`;
  return { output: output.slice(0, head) + note + tail, truncated: true, artifact };
}
