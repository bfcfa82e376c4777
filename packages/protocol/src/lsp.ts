/**
 * The queries the LSP tool can make of a language server. One list for the tool's input
 * schema (tools) and the server side that answers them (integrations).
 */
export const LSP_OPERATIONS = [
  "definition",
  "references",
  "hover",
  "implementation",
  "incomingCalls",
  "outgoingCalls",
  "documentSymbols",
  "workspaceSymbols",
  "diagnostics",
  "renamePreview",
] as const;

/** One of {@link LSP_OPERATIONS}. */
export type LspOperation = (typeof LSP_OPERATIONS)[number];
