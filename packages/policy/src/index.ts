// The public API of @z-engine/policy: the permission gate's pure core.

// Actions: what a tool call would do (paths already resolved by the tool).
export type {
  Action,
  ActionKind,
  ParsedCommand,
  Redirection,
  SimpleCommand,
} from "./action.js";

// Rules: the grammar, compiling and the three lists.
export type { PathAnchor, PathRuleTool, Rule, RuleParseResult } from "./rule.js";
export { parseRule } from "./rule.js";
export type { CompiledRule, RuleError, RuleOrigin } from "./compile.js";
export { compileRule, compileRules } from "./compile.js";
export type { PermissionRules } from "./rule-index.js";

// Deciding a call.
export type { DecideContext, Decision, ToolCall } from "./context.js";
export { decide } from "./decide.js";

// Shell commands: splitting and read-only recognition.
export {
  initShellParser,
  isShellParserReady,
  MAX_COMMAND_LENGTH,
  parseCommand,
  parseCommandSync,
  ShellParserError,
} from "./shell-parser.js";
export { isReadOnlyCommand, isReadOnlySimpleCommand } from "./read-only.js";
export { displayCommand } from "./shell-chars.js";
export type { RealPaths } from "./command-paths.js";
export { commandPaths } from "./command-paths.js";

// Suggestions for "Always allow".
export { suggestCommandRule, suggestPathRule } from "./suggest.js";
