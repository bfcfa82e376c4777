import { join } from "node:path";
import { type DiscoverOptions, instructionCandidates } from "@z-engine/context";
import type { CommandHost } from "./host.js";
import { rememberTarget } from "./remember.js";

/** One top-level instruction file the session reads, and whether it is there. */
export interface MemoryFile {
  readonly path: string;
  /** `user`: the user's own (`~/.claude/CLAUDE.md`, the config folder's AGENTS.md); `local`: `*.local.md`. */
  readonly kind: "user" | "project" | "local";
  /** True when a file is there (also when the door refuses to read it). */
  readonly exists: boolean;
  /** Why the door does not read it (a link out of the project, a FIFO, a deny rule), if so. */
  readonly refused?: string;
}

/** The session's instruction files (`/memory`), in precedence order (lowest first). */
export interface MemoryFiles {
  /** Every top-level file discovery reads, whether or not it exists. */
  readonly files: readonly MemoryFile[];
  /**
   * The file to create when the project folder has none of its own (`AGENTS.md`, `CLAUDE.md`,
   * `.claude/CLAUDE.md`): the one `/remember` and `/init` write, the project's `AGENTS.md`.
   */
  readonly newProjectFile?: string;
}

function discoveryOf(host: CommandHost): DiscoverOptions {
  return (
    host.definitions?.discovery ?? {
      projectRoot: host.projectRoot,
      userConfigDir: host.userConfigDir,
      homeDir: host.homeDir,
      fs: host.doors.instructions,
      userFs: host.doors.userInstructions,
    }
  );
}

/**
 * The instruction files of the session, looked at through the doors discovery reads them
 * through (nothing is read). Never rejects: a file the door cannot look at is `refused`.
 */
export async function memoryFiles(host: CommandHost): Promise<MemoryFiles> {
  const discovery = discoveryOf(host);
  const files = await Promise.all(
    instructionCandidates(discovery).map(async ({ path, kind }): Promise<MemoryFile> => {
      const door = kind === "user" ? (discovery.userFs ?? discovery.fs) : discovery.fs;
      const admission = await door.admit(path).catch((error: unknown) => ({
        ok: false as const,
        reason: "unreadable" as const,
        message: `${path} cannot be looked at (${String(error)})`,
      }));
      if (admission.ok) return { path, kind, exists: true };
      if (admission.reason === "missing") return { path, kind, exists: false };
      return { path, kind, exists: true, refused: admission.message };
    }),
  );
  const own = ["AGENTS.md", "CLAUDE.md", join(".claude", "CLAUDE.md")].map((name) =>
    join(host.projectRoot, name),
  );
  const hasOwn = files.some((f) => f.exists && own.includes(f.path));
  return hasOwn ? { files } : { files, newProjectFile: await rememberTarget(host, false) };
}
