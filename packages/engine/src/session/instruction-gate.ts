import { decide } from "@z-engine/policy";
import type { PermissionMode } from "@z-engine/protocol";
import type { SessionConfig } from "../settings/session-config.js";

/** What the read gate for instruction imports reads, at the moment it is asked. */
export interface InstructionGateState {
  readonly trusted: boolean;
  readonly config: SessionConfig;
  readonly mode: PermissionMode;
  readonly additionalDirectories: readonly string[];
}

/**
 * The gate for instruction files and imports outside the project and the user's config
 * folder (context's `readAllowed`): a project's file may bring one in only when the project
 * is trusted and the policy allows a Read of it (by its real path and as written); the
 * user's own AGENTS.md may, whenever the policy allows it. The state is read on each call,
 * so trusting the workspace mid-session opens the gate for later nested files.
 */
export function instructionReadGate(
  projectRoot: string,
  homeDir: string,
  state: () => InstructionGateState,
) {
  return (realPath: string, writtenPath: string, importer: string): boolean => {
    const now = state();
    if (!now.trusted && importer !== "user") return false;
    const paths = realPath === writtenPath ? [realPath] : [realPath, writtenPath];
    const decision = decide(
      { toolName: "Read", actions: [{ kind: "read", paths }] },
      now.mode,
      now.config.rules,
      {
        projectRoot,
        additionalDirectories: now.additionalDirectories,
        homeDir,
        autoAllowReadOnlyBash: false,
      },
    );
    return decision.type === "allow";
  };
}
