import type { PermissionMode } from "@z-engine/protocol";

/** The modes from the strictest to the loosest: what each lets run without asking grows. */
const ORDER: readonly PermissionMode[] = ["plan", "ask", "acceptEdits", "bypass"];

/**
 * The stricter of the session's own mode and the one a caller asked for: a caller may tighten
 * the mode (`plan` in an `acceptEdits` folder), never loosen it. Pure.
 */
export function stricterMode(
  own: PermissionMode,
  asked: PermissionMode | undefined,
): PermissionMode {
  if (asked === undefined) return own;
  return ORDER.indexOf(asked) < ORDER.indexOf(own) ? asked : own;
}
