// The public API of @z-engine/integrations.

// LSP: the language-server client manager (lsp/). vscode-languageserver-protocol is loaded
// only when the first server starts.

/** After a write: fresh error lines for the file, bounded wait; see the function's contract. */
export {
  AFTER_WRITE_WAIT_MS,
  errorsAfterWrite,
  MAX_AFTER_WRITE_ERRORS,
} from "./lsp/after-write.js";
/** An operational failure of a language server (`notInstalled`, `startFailed`, `crashed`, `timeout`, `requestFailed`). */
export { LspError, type LspErrorCode } from "./lsp/errors.js";
/** The servers of one project: routing, lazy start, remembered failures, restarts, stop. */
export {
  type LiveServer,
  LspManager,
  type LspManagerOptions,
  type LspServerStatus,
  type Route,
} from "./lsp/manager.js";
/** The queries the LSP tool makes and their text answers. */
export {
  LSP_OPERATIONS,
  type LspAnswer,
  type LspOperation,
  type LspRequest,
} from "./lsp/operations.js";
/** Answers one query, starting the file's server when needed. Never rejects. */
export { queryLsp } from "./lsp/query.js";
/** Built-in server specs and `[lsp.servers]` entries. */
export {
  BUILTIN_LSP_SERVERS,
  type ConfiguredLspServer,
  type LspServerSpec,
  lspServerSpecs,
} from "./lsp/specs.js";
