import type { ApplyResult, MergeConflict } from "@z-engine/host";

const MAX_SIDE_CHARS = 2_000;
const clip = (text: string | null) =>
  text === null
    ? "(absent or binary)"
    : text.length > MAX_SIDE_CHARS
      ? `${text.slice(0, MAX_SIDE_CHARS)}\n[...]`
      : text;

function conflictText(c: MergeConflict): string {
  return [
    `## ${c.path}: ${c.kind}`,
    `### project (ours)\n${clip(c.ours)}`,
    `### agent (theirs)\n${clip(c.theirs)}`,
    `### base\n${clip(c.base)}`,
  ].join("\n");
}

/**
 * The model's text for an apply that wrote nothing: each refused path with its reason (a
 * link the project committed, a FIFO, ...), then each conflict with its three versions.
 */
export function applyFailureText(result: Extract<ApplyResult, { applied: false }>): string {
  const parts = ["Nothing was applied: the project is unchanged and the agent's worktree is kept."];
  if (result.refused.length > 0) {
    const lines = result.refused.map((r) => `- ${r.path}: ${r.reason}`);
    parts.push(
      `${result.refused.length} path(s) were refused (the engine writes nothing through a link it did not create, nor outside the project):\n${lines.join("\n")}`,
    );
  }
  if (result.conflicts.length > 0) {
    parts.push(
      `${result.conflicts.length} file(s) conflict with the project's current files.\n\n${result.conflicts.map(conflictText).join("\n\n")}`,
    );
  }
  return parts.join("\n\n");
}
