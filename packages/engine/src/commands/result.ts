import type { TurnSummary } from "../run/turn.js";

/** What `SessionHandle.command` did: an answer, a notice, or a prompt command's ended turn. */
export type CommandResult =
  | { readonly type: "output"; readonly name: string; readonly markdown: string }
  | { readonly type: "notice"; readonly name: string; readonly message: string }
  | { readonly type: "turn"; readonly name: string; readonly summary: TurnSummary };
