import type { LspOperation } from "@z-engine/protocol";
import type {
  Diagnostic,
  DocumentDiagnosticReport,
  DocumentSymbol,
  Position,
  SymbolInformation,
} from "vscode-languageserver-protocol/node";
import { MAX_DOCUMENT_BYTES, uriOf } from "./documents.js";
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
import type { LspClient } from "./client.js";
import type { LiveServer } from "./manager.js";
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

function flatten(symbols: DocumentSymbol[]): DocumentSymbol[] {
  return symbols.flatMap((s) => [s, ...flatten(s.children ?? [])]);
}

/** Where a symbol's name is: the server's document symbols first, then the text. */
async function positionOfSymbol(
  server: LiveServer,
  path: string,
  name: string,
  line: number | undefined,
  signal: AbortSignal,
): Promise<Position | null> {
  if (line === undefined && server.client.capabilities.documentSymbolProvider) {
    const symbols = await server.client
      .request<DocumentSymbol[] | SymbolInformation[] | null>(
        "textDocument/documentSymbol",
        { textDocument: { uri: uriOf(path) } },
        signal,
      )
      .catch(() => null);
    const first = symbols?.[0];
    if (symbols && first && !("location" in first)) {
      const hit = flatten(symbols as DocumentSymbol[]).find((s) => s.name === name);
      if (hit) return hit.selectionRange.start;
    } else if (symbols) {
      const hit = (symbols as SymbolInformation[]).find((s) => s.name === name);
      if (hit) return hit.location.range.start;
    }
  }
  const read = await server.docs.files.readText(path, { maxBytes: MAX_DOCUMENT_BYTES });
  if (!read.ok) return null;
  const lines = read.text.split("\n");
  const word = new RegExp(`(^|[^\\w$])(${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")})(?![\\w$])`);
  const range = line === undefined ? lines.keys() : [line - 1];
  for (const i of range) {
    const m = word.exec(lines[i] ?? "");
    if (m) return { line: i, character: m.index + (m[1] ?? "").length };
  }
  return null;
}

/** The position a request names, or an error for the model. */
async function positionOf(
  server: LiveServer,
  request: LspRequest,
  signal: AbortSignal,
): Promise<Position | string> {
  if (request.symbol) {
    const at = await positionOfSymbol(server, request.path, request.symbol, request.line, signal);
    return (
      at ??
      `Symbol \`${request.symbol}\` was not found in ${request.path}${request.line ? ` on line ${request.line}` : ""}.`
    );
  }
  if (request.line === undefined)
    return `${request.operation} needs a position: line and column, or symbol (a name in the file).`;
  return { line: request.line - 1, character: Math.max(0, (request.column ?? 1) - 1) };
}

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
  const uri = uriOf(request.path);
  const before = server.client.pushed(uri).count;
  await server.docs.syncAll();
  const sync = await server.docs.sync(request.path);
  if (sync === "missing" || sync === "closed")
    return { ok: false, error: `File does not exist: ${request.path}` };
  if (sync === "refused")
    return {
      ok: false,
      error: server.docs.refusal(request.path) ?? `${request.path} cannot be read`,
    };
  const q = new Quoter(root, server.docs.files);
  const doc = { textDocument: { uri } };
  const c = quoting(server.client, q);
  try {
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
      case "diagnostics": {
        // A push is awaited only after the file changed; otherwise the last one is current.
        const fresh =
          sync === "opened" ||
          sync === "changed" ||
          server.client.pullsDiagnostics ||
          server.client.spec.tsserverDiagnostics;
        const items = fresh
          ? await fileDiagnostics(server, request.path, before, FIRST_DIAGNOSTICS_MS, signal)
          : server.client.pushed(uri).items;
        if (items === null)
          return {
            ok: false,
            error: `${server.client.spec.name} sent no diagnostics for ${q.show(request.path)} in time.`,
          };
        return ok(formatDiagnostics(request.path, items, q));
      }
      default:
        return await positional(server, request, q, signal);
    }
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
}

function ok(text: string): LspAnswer {
  return { ok: true, text };
}

/** A client whose answers have their files' lines loaded into `q` (through its door) first. */
function quoting(client: LspClient, q: Quoter): Pick<LspClient, "request"> {
  return {
    async request<R>(method: string, params: unknown, signal: AbortSignal): Promise<R> {
      const result = await client.request<R>(method, params, signal);
      await q.load(result);
      return result;
    },
  };
}

async function positional(
  server: LiveServer,
  request: LspRequest,
  q: Quoter,
  signal: AbortSignal,
): Promise<LspAnswer> {
  const position = await positionOf(server, request, signal);
  if (typeof position === "string") return { ok: false, error: position };
  const c = quoting(server.client, q);
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
