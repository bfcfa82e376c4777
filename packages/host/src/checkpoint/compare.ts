import { splitNul } from "../git.js";
import type { ShadowRepo } from "./shadow-repo.js";

/** How a path differs between two snapshots (or a snapshot and the work tree). */
export type ChangeStatus = "added" | "modified" | "deleted" | "typeChanged";

/** One differing path, project-relative. Renames show as a deletion and an addition. */
export interface CheckpointChange {
  readonly path: string;
  readonly status: ChangeStatus;
}

const STATUS: Record<string, ChangeStatus> = {
  A: "added",
  M: "modified",
  D: "deleted",
  T: "typeChanged",
};

/** Compares two trees or commits; `from` → `to`, sorted by path. Rejects when git fails. */
export async function compareTrees(
  shadow: ShadowRepo,
  from: string,
  to: string,
): Promise<CheckpointChange[]> {
  const out = await shadow.git([
    "diff-tree",
    "-r",
    "-z",
    "--no-renames",
    "--name-status",
    from,
    to,
  ]);
  const parts = splitNul(out.stdout);
  const changes: CheckpointChange[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const status = STATUS[parts[i]!.slice(0, 1)] ?? "modified";
    changes.push({ path: parts[i + 1]!, status });
  }
  return changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** The message trailer that lists a snapshot's unstorable files. */
const UNSTORABLE_TRAILER = "Z-Engine-Unstorable: ";

/** A snapshot's commit message: the label, then the unstorable paths as one JSON line. */
export function snapshotMessage(label: string, unstorable: readonly string[]): string {
  const title = label.trim().length > 0 ? label.trim() : "checkpoint";
  return `${title}\n\n${UNSTORABLE_TRAILER}${JSON.stringify(unstorable)}\n`;
}

/** The unstorable paths a snapshot recorded (empty when it has none or its message is foreign). */
export async function readUnstorable(shadow: ShadowRepo, commit: string): Promise<string[]> {
  const out = await shadow.git(["cat-file", "commit", commit]);
  const line = out.stdout
    .toString("utf8")
    .split("\n")
    .find((text) => text.startsWith(UNSTORABLE_TRAILER));
  if (!line) return [];
  try {
    const parsed: unknown = JSON.parse(line.slice(UNSTORABLE_TRAILER.length));
    return Array.isArray(parsed) ? parsed.filter((p): p is string => typeof p === "string") : [];
  } catch {
    return [];
  }
}
