import type { ArtifactRef, ToolDisplay, ToolResultContent } from "@z-engine/protocol";

/** What a tool call produced. */
export interface ToolOutput {
  /** What the model sees: text and image blocks. */
  readonly content: readonly ToolResultContent[];
  /** True when the call failed; the model sees the content as an error result. */
  readonly isError: boolean;
  /** What the host shows as the result, when it is more than the text. */
  readonly display?: ToolDisplay;
  /** Real absolute paths the call wrote (for "files changed this turn" and the tracker). */
  readonly writtenPaths: readonly string[];
  /** Long output stored in the artifact sink; the text names each one. */
  readonly artifacts: readonly ArtifactRef[];
}

/** Extra parts of a {@link ToolOutput}. */
export interface OutputExtras {
  readonly display?: ToolDisplay;
  readonly writtenPaths?: readonly string[];
  readonly artifacts?: readonly ArtifactRef[];
}

/** A successful text result. */
export function textOutput(text: string, extras: OutputExtras = {}): ToolOutput {
  return {
    content: [{ type: "text", text }],
    isError: false,
    writtenPaths: extras.writtenPaths ?? [],
    artifacts: extras.artifacts ?? [],
    ...(extras.display ? { display: extras.display } : {}),
  };
}

/** An error result for the model (a tool failure never ends a turn). */
export function errorOutput(message: string, extras: OutputExtras = {}): ToolOutput {
  return { ...textOutput(message, extras), isError: true };
}
