import { createProjectFileReader } from "@z-engine/host";
import { decide } from "@z-engine/policy";
import type { ProjectFileReader } from "@z-engine/protocol";
import { type DoorPlace, type DoorView, readRulesOf, userDoor } from "../core/project-doors.js";

/**
 * The gate for instruction files and imports outside the project and the user's config
 * folder (context's `readAllowed`): a project's file may bring one in only when the project
 * is trusted and the policy allows a Read of it (by its real path and as written); the
 * user's own AGENTS.md may, whenever the policy allows it. The view is read on each call,
 * so trusting the workspace mid-session opens the gate for later nested files.
 */
export function instructionReadGate(place: DoorPlace, view: () => DoorView) {
  return (realPath: string, writtenPath: string, importer: string): boolean => {
    const now = view();
    if (!now.trusted && importer !== "user") return false;
    const paths = realPath === writtenPath ? [realPath] : [realPath, writtenPath];
    const decision = decide(
      { toolName: "Read", actions: [{ kind: "read", paths }] },
      now.mode,
      now.rules,
      {
        projectRoot: place.projectRoot,
        additionalDirectories: now.additionalDirectories,
        homeDir: place.homeDir,
        autoAllowReadOnlyBash: false,
      },
    );
    return decision.type === "allow";
  };
}

/** What instruction discovery reads through: its doors and its gate. */
export interface InstructionDoors {
  /** Project files and their imports: inside the repository and the user's config folder, or through the gate. */
  readonly files: ProjectFileReader;
  /** The user's own AGENTS.md and its imports. */
  readonly userFiles: ProjectFileReader;
  readonly readAllowed: ReturnType<typeof instructionReadGate>;
}

/**
 * The doors instruction discovery is handed: the repository (or project) and the user's
 * config folder are read freely (Read rules applied), anything else only through
 * {@link instructionReadGate} as a project file's import.
 */
export function instructionDoors(
  place: DoorPlace,
  view: () => DoorView,
  folders: { readonly top: string; readonly userConfigDir: string },
): InstructionDoors {
  const readAllowed = instructionReadGate(place, view);
  const inside = [folders.top, folders.userConfigDir];
  const files = createProjectFileReader({
    roots: inside,
    outside: (facts) => readAllowed(facts.realPath, facts.path, "project"),
    rules: readRulesOf(place, view, { inside }),
  });
  return { files, userFiles: userDoor(place, view), readAllowed };
}
