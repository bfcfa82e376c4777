import { createProjectFileReader, type ProjectFileFacts } from "@z-engine/host";
import { decide, type PermissionRules } from "@z-engine/policy";
import type { PermissionMode, ProjectFileReader } from "@z-engine/protocol";
import type { SessionConfig } from "../settings/session-config.js";
import type { SessionState } from "./state.js";

/** What the doors' Read rules are decided with, read at each question. */
export interface DoorView {
  readonly trusted: boolean;
  readonly mode: PermissionMode;
  readonly rules: PermissionRules;
  readonly additionalDirectories: readonly string[];
}

/** The folders a session's doors are built around (real absolute paths). */
export interface DoorPlace {
  readonly projectRoot: string;
  readonly homeDir: string;
}

/** The session's view for its doors: its settings, mode and rules as they are now. */
export function sessionDoorView(state: SessionState): () => DoorView {
  // The joined rules are kept while neither list changes: policy indexes rules by identity.
  let joined: { s: PermissionRules; c: PermissionRules; rules: PermissionRules } | undefined;
  return () => {
    const s = state.sessionRules;
    const c = state.settings.config.rules;
    if (joined?.s !== s || joined.c !== c) {
      const rules = {
        allow: [...s.allow, ...c.allow],
        ask: [...s.ask, ...c.ask],
        deny: [...s.deny, ...c.deny],
      };
      joined = { s, c, rules };
    }
    return {
      trusted: state.settings.trusted,
      mode: state.mode,
      rules: joined.rules,
      additionalDirectories: state.settings.additionalDirectories,
    };
  };
}

/**
 * The Read rules as a door asks them: the gate's answer for a Read of the file (by its real
 * path and as asked, marked `hardLinked` when it has other links), with `inside` folders read
 * freely as the project is. Nobody can be asked while files are loaded, so a read that would
 * ask is refused too, unless `denyOnly` (the user's own files: only deny rules hold).
 */
export function readRulesOf(
  place: DoorPlace,
  view: () => DoorView,
  options: { readonly inside?: readonly string[]; readonly denyOnly?: boolean } = {},
): (facts: ProjectFileFacts) => string | undefined {
  return (facts) => {
    const now = view();
    const paths = facts.realPath === facts.path ? [facts.realPath] : [facts.realPath, facts.path];
    const action = {
      kind: "read" as const,
      paths,
      ...(facts.hardLinked ? { hardLinked: true } : {}),
    };
    const decision = decide({ toolName: "Read", actions: [action] }, now.mode, now.rules, {
      projectRoot: place.projectRoot,
      additionalDirectories: [...now.additionalDirectories, ...(options.inside ?? [])],
      homeDir: place.homeDir,
      autoAllowReadOnlyBash: false,
    });
    if (decision.type === "allow" || (options.denyOnly && decision.type === "ask"))
      return undefined;
    return decision.type === "deny"
      ? `reading it is denied: ${decision.reason}`
      : `reading it would need approval (${decision.reason}), and nobody is asked while files are loaded`;
  };
}

/**
 * The door for the project's own definition files, documents and repo map: real paths inside
 * the project only, the session's Read rules applied.
 */
export function projectDoor(place: DoorPlace, view: () => DoorView): ProjectFileReader {
  return createProjectFileReader({ roots: [place.projectRoot], rules: readRulesOf(place, view) });
}

/**
 * The door check discovery reads build files and lists folders through: real paths inside
 * the project only, regular files, bounded reads, the settings' Read rules (`config`'s mode
 * and rules: discovery runs before the session's state exists).
 */
export function buildFilesDoor(
  place: DoorPlace,
  config: Pick<SessionConfig, "mode" | "rules" | "settings">,
): ProjectFileReader {
  const view = (): DoorView => ({
    trusted: false,
    mode: config.mode,
    rules: config.rules,
    additionalDirectories: config.settings.permissions.additional_directories,
  });
  return projectDoor(place, view);
}

/**
 * The door for the user's own definition and instruction files (the engine's config folder,
 * `~/.claude`): they may be links anywhere (the user made them), and deny rules still hold.
 */
export function userDoor(place: DoorPlace, view: () => DoorView): ProjectFileReader {
  return createProjectFileReader({
    roots: ["/"],
    rules: readRulesOf(place, view, { denyOnly: true }),
  });
}

/**
 * The door for a command's `@path` includes: any path the rules let the model read without
 * asking (`rules`, the turn's: a trusted command's allowed-tools count), by its real path and
 * as written.
 */
export function includeDoor(
  place: DoorPlace,
  view: () => DoorView,
  rules: PermissionRules,
): ProjectFileReader {
  return readableDoor(place, () => ({ ...view(), rules }));
}

/**
 * The door for what the model is shown from files it did not name itself (the lines a
 * language server's answer points at, the files it is sent): any path the session's rules
 * let the model read without asking, by its real path and as written.
 */
export function readableDoor(place: DoorPlace, view: () => DoorView): ProjectFileReader {
  return createProjectFileReader({ roots: ["/"], rules: readRulesOf(place, view) });
}

/**
 * A session's doors, the only way its code reads what the project controls (see the check
 * `checks/project-files-door.test.ts`): instruction files and their imports, the user's own
 * instructions, the project's definitions, documents and repo map, the user's definitions.
 */
export interface SessionDoors {
  readonly instructions: ProjectFileReader;
  readonly userInstructions: ProjectFileReader;
  readonly project: ProjectFileReader;
  readonly user: ProjectFileReader;
  /** What the session's rules let the model read without asking ({@link readableDoor}). */
  readonly readable: ProjectFileReader;
}
