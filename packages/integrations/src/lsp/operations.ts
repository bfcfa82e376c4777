import type { LspOperation } from "@z-engine/protocol";
import type { Diagnostic, DocumentDiagnosticReport } from "vscode-languageserver-protocol/node";
import { Asker } from "./asking.js";
import { type SyncResult, uriOf } from "./documents.js";
import {
  formatDiagnostics,
  formatDocumentSymbols,
  formatHover,
  formatIncoming,
  formatLocations,
  formatOutgoing,
  formatRename,
  formatWorkspaceSymbols,
  Quoter,
} from "./format.js";
import type { LiveServer } from "./manager.js";
import { positionOf } from "./position.js";
import { tsserverDiagnostics } from "./tsserver-diagnostics.js";

/** One query: the file, and a position as 1-based line and column or as a symbol's name. */
export interface LspRequest {
  readonly operation: LspOperation;
  /** Absolute path of the file the query is about (it picks the server). */
  readonly path: string;
  readonly line?: number;
  readonly column?: number;
  readonly symbol?: string;
  /** workspaceSymbols: the search text. */
  readonly query?: string;
  /** renamePreview: the new name. */
  readonly newName?: string;
}

/** A query's answer as text for the model, or the reason it failed. */
export type LspAnswer =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly error: string };

/** Longest wait for a first push of diagnostics after opening or changing a file. */
const FIRST_DIAGNOSTICS_MS = 30_000;

/** The file's diagnostics: pulled when the server offers it, else the last push (awaited after a change). */
export async function fileDiagnostics(
  server: LiveServer,
  path: string,
  pushesBefore: number,
  waitMs: number,
  signal: AbortSignal,
): Promise<Diagnostic[] | null> {
  const uri = uriOf(path);
  if (server.client.spec.tsserverDiagnostics) {
    const items = await tsserverDiagnostics(server.client, path, signal, waitMs);
    if (items) return items;
  }
  if (server.client.pullsDiagnostics) {
    const report = await server.client
      .request<DocumentDiagnosticReport>(
        "textDocument/diagnostic",
        { textDocument: { uri } },
        signal,
        waitMs,
      )
      .catch(() => null);
    return report && report.kind === "full" ? report.items : null;
  }
  const version = server.docs.versionOf(path);
  const fresh = await server.client.waitForPush(uri, pushesBefore, waitMs, signal, version);
  return fresh ? server.client.pushed(uri).items : null;
}

/**
 * Answers one query on a running server: brings the open files in step with the disk
 * (files changed by commands too), then sends the request and formats the result as short
 * text with project-relative paths. Never rejects: a server error is an error answer.
 */
export async function answer(
  server: LiveServer,
  root: string,
  request: LspRequest,
  signal: AbortSignal,
): Promise<LspAnswer> {
  const before = server.client.pushed(uriOf(request.path)).count;
  // The file first: what its sync did tells whether its diagnostics are still to come.
  const sync = await server.docs.sync(request.path);
  await server.docs.syncAll();
  if (sync === "missing" || sync === "closed")
    return { ok: false, error: `File does not exist: ${request.path}` };
  if (sync === "refused")
    return {
      ok: false,
      error: server.docs.refusal(request.path) ?? `${request.path} cannot be read`,
    };
  const q = new Quoter(root, server.docs.files);
  const c = new Asker(server.client, q);
  try {
    const result = await dispatch(server, request, { q, c, sync, before }, signal);
    return result.ok ? ok(result.text + c.note()) : result;
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
}

/** What one query's operations share. */
interface Asking {
  readonly q: Quoter;
  readonly c: Asker;
  /** What bringing the file in step did. */
  readonly sync: SyncResult;
  /** The file's pushes before it was brought in step. */
  readonly before: number;
}

async function dispatch(
  server: LiveServer,
  request: LspRequest,
  a: Asking,
  signal: AbortSignal,
): Promise<LspAnswer> {
  const { q, c } = a;
  const doc = { textDocument: { uri: uriOf(request.path) } };
  switch (request.operation) {
    case "documentSymbols":
      return ok(
        formatDocumentSymbols(await c.request("textDocument/documentSymbol", doc, signal), q),
      );
    case "workspaceSymbols":
      return ok(
        formatWorkspaceSymbols(
          await c.request(
            "workspace/symbol",
            { query: request.query ?? request.symbol ?? "" },
            signal,
          ),
          q,
        ),
      );
    case "diagnostics":
      return diagnosticsAnswer(server, request.path, a, signal);
    default:
      return positional(server, request, a, signal);
  }
}

async function diagnosticsAnswer(
  server: LiveServer,
  path: string,
  { q, c, sync, before }: Asking,
  signal: AbortSignal,
): Promise<LspAnswer> {
  const client = server.client;
  // A push is awaited only after the file changed; otherwise the last one is current.
  const asks = client.pullsDiagnostics || client.spec.tsserverDiagnostics === true;
  const fresh = sync === "opened" || sync === "changed" || asks;
  let items = fresh
    ? await fileDiagnostics(server, path, before, FIRST_DIAGNOSTICS_MS, signal)
    : client.pushed(uriOf(path)).items;
  // A server still loading the project has not checked the file yet.
  if (items?.length === 0 && (await c.waitIfBusy(signal)))
    items = asks
      ? await fileDiagnostics(server, path, before, FIRST_DIAGNOSTICS_MS, signal)
      : client.pushed(uriOf(path)).items;
  if (items === null)
    return {
      ok: false,
      error: `${client.spec.name} sent no diagnostics for ${q.show(path)} in time.`,
    };
  return ok(formatDiagnostics(path, items, q));
}

function ok(text: string): LspAnswer {
  return { ok: true, text };
}

async function positional(
  server: LiveServer,
  request: LspRequest,
  { q, c }: Asking,
  signal: AbortSignal,
): Promise<LspAnswer> {
  const position = await positionOf(server, request, signal);
  if (typeof position === "string") return { ok: false, error: position };
  const at = { textDocument: { uri: uriOf(request.path) }, position };
  switch (request.operation) {
    case "definition":
      return ok(
        formatLocations(await c.request("textDocument/definition", at, signal), q, "definition"),
      );
    case "implementation":
      return ok(
        formatLocations(
          await c.request("textDocument/implementation", at, signal),
          q,
          "implementation",
        ),
      );
    case "references":
      return ok(
        formatLocations(
          await c.request(
            "textDocument/references",
            { ...at, context: { includeDeclaration: true } },
            signal,
          ),
          q,
          "reference",
        ),
      );
    case "hover":
      return ok(formatHover(await c.request("textDocument/hover", at, signal)));
    case "renamePreview": {
      if (!request.newName) return { ok: false, error: "renamePreview needs newName." };
      return ok(
        formatRename(
          await c.request("textDocument/rename", { ...at, newName: request.newName }, signal),
          request.newName,
          q,
        ),
      );
    }
    case "incomingCalls":
    case "outgoingCalls": {
      const items = await c.request<{ name: string }[] | null>(
        "textDocument/prepareCallHierarchy",
        at,
        signal,
      );
      const item = items?.[0];
      if (!item) return ok("No callable symbol at that position.");
      if (request.operation === "incomingCalls")
        return ok(
          formatIncoming(await c.request("callHierarchy/incomingCalls", { item }, signal), q),
        );
      return ok(
        formatOutgoing(await c.request("callHierarchy/outgoingCalls", { item }, signal), q),
      );
    }
    default:
      return { ok: false, error: `Unknown operation ${request.operation}.` };
  }
}
