import { createHash } from "node:crypto";
import { join } from "node:path";
import type { SystemSection } from "@z-engine/protocol";
import type { SessionCore } from "../session/core.js";

/** The system sections a request carries: the session's, with its repo map once one is ready. */
export function requestSystem(
  core: Pick<SessionCore, "repoMap" | "system">,
): readonly SystemSection[] {
  return core.repoMap ? core.repoMap.system(core.system) : core.system;
}

/** The repo map's tag cache for a project: `<data>/repo-map/<hash of the project path>.json`. */
export function repoMapCacheFile(dataDir: string, projectRoot: string): string {
  const key = createHash("sha256").update(projectRoot).digest("hex").slice(0, 16);
  return join(dataDir, "repo-map", `${key}.json`);
}
