import { createHash } from "node:crypto";
import { join } from "node:path";

const keyOf = (projectRoot: string) =>
  createHash("sha256").update(projectRoot).digest("hex").slice(0, 16);

/** The repo map's tag cache for a project: `<data>/repo-map/<hash of the project path>.json`. */
export function repoMapCacheFile(dataDir: string, projectRoot: string): string {
  return join(dataDir, "repo-map", `${keyOf(projectRoot)}.json`);
}

/** The project's last rendered map, beside its tag cache: `<data>/repo-map/<hash>.map.json`. */
export function repoMapSnapshotFile(dataDir: string, projectRoot: string): string {
  return join(dataDir, "repo-map", `${keyOf(projectRoot)}.map.json`);
}
