import type { ProjectFileReader } from "@z-engine/protocol";

/**
 * The file access instruction discovery needs: the project-files door (protocol's
 * `ProjectFileReader`; the engine hands context one from host's `createProjectFileReader`).
 * Context reads no project file itself.
 */
export type InstructionFs = ProjectFileReader;

/** The most bytes read from one top-level instruction file (the rest is cut, with a note). */
export const MAX_INSTRUCTION_FILE_BYTES = 256 * 1024;

/** What reading one instruction file through the door gave. */
export type InstructionRead =
  | { readonly kind: "text"; readonly text: string; readonly cut: boolean }
  | { readonly kind: "missing" }
  /** Not read: `why` finishes "refused: ..." for the note, `problem` is the notice's line. */
  | { readonly kind: "refused"; readonly why: string; readonly problem: string };

/** Reads `path` through the door, at most `maxBytes` (cut beyond). Never rejects. */
export async function readInstruction(
  fs: InstructionFs,
  path: string,
  maxBytes: number,
): Promise<InstructionRead> {
  const read = await fs.readText(path, { maxBytes, cut: true }).catch((error: unknown) => ({
    ok: false as const,
    reason: "unreadable" as const,
    message: `${path} cannot be read (${String(error)})`,
  }));
  if (read.ok) return { kind: "text", text: read.text, cut: read.cut };
  if (read.reason === "missing") return { kind: "missing" };
  const why = read.reason === "outside" ? "outside the project" : read.message;
  return { kind: "refused", why, problem: read.message };
}
