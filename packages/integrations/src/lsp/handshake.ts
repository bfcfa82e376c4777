/** The client's side of the LSP handshake: what it says it can do, and what it answers servers. */
import type { ProtocolConnection } from "vscode-languageserver-protocol/node";
import { pathToFileURL } from "node:url";
import type { LspServerSpec } from "./specs.js";

/** The `initialize` request's parameters: the root as the one workspace folder, the capabilities. */
export function initializeParams(root: string, spec: LspServerSpec) {
  const rootUri = pathToFileURL(root).href;
  return {
    processId: process.pid,
    clientInfo: { name: "z-engine" },
    rootUri,
    rootPath: root,
    workspaceFolders: [{ uri: rootUri, name: "project" }],
    capabilities: CLIENT_CAPABILITIES,
    ...(spec.initializationOptions !== undefined
      ? { initializationOptions: spec.initializationOptions }
      : {}),
  };
}

/** Answers what servers ask of a client: no configuration, no edits, no documents shown. */
export function answerClientRequests(connection: ProtocolConnection): void {
  connection.onRequest("workspace/configuration", (params: { items?: unknown[] }) =>
    (params.items ?? []).map(() => null),
  );
  connection.onRequest("client/registerCapability", () => null);
  connection.onRequest("client/unregisterCapability", () => null);
  connection.onRequest("window/workDoneProgress/create", () => null);
  connection.onRequest("window/showMessageRequest", () => null);
  connection.onRequest("window/showDocument", () => ({ success: false }));
  connection.onRequest("workspace/applyEdit", () => ({ applied: false }));
  connection.onRequest("workspace/workspaceFolders", () => null);
  connection.onRequest("workspace/diagnostic/refresh", () => null);
  connection.onRequest("workspace/semanticTokens/refresh", () => null);
  connection.onRequest("workspace/inlayHint/refresh", () => null);
  connection.onRequest("workspace/codeLens/refresh", () => null);
}

/** What the client tells servers it can do: the queries the LSP tool sends, pull and push diagnostics, progress. */
const CLIENT_CAPABILITIES = {
  workspace: {
    configuration: true,
    workspaceFolders: true,
    didChangeWatchedFiles: { dynamicRegistration: false },
    symbol: { dynamicRegistration: false },
    diagnostics: { refreshSupport: false },
  },
  window: { workDoneProgress: true },
  textDocument: {
    synchronization: { dynamicRegistration: false, didSave: true },
    publishDiagnostics: { relatedInformation: false, versionSupport: true },
    diagnostic: { dynamicRegistration: false, relatedDocumentSupport: false },
    definition: { linkSupport: true },
    implementation: { linkSupport: true },
    references: {},
    hover: { contentFormat: ["markdown", "plaintext"] },
    documentSymbol: { hierarchicalDocumentSymbolSupport: true },
    callHierarchy: {},
    rename: { prepareSupport: false },
  },
  general: { positionEncodings: ["utf-16"] },
  // rust-analyzer then says when it has loaded the project (`quiescent`).
  experimental: { serverStatusNotification: true },
};
