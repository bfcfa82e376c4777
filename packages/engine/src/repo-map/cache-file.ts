import { createHash } from "node:crypto";
import { join } from "node:path";

/** The repo map's tag cache for a project: `<data>/repo-map/<hash of the project path>.json`. */
export function repoMapCacheFile(dataDir: string, projectRoot: string): string {
  const key = createHash("sha256").update(projectRoot).digest("hex").slice(0, 16);
  return join(dataDir, "repo-map", `${key}.json`);
}
