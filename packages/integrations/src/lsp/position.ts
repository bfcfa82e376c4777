import type {
  DocumentSymbol,
  Position,
  SymbolInformation,
} from "vscode-languageserver-protocol/node";
import { MAX_DOCUMENT_BYTES, uriOf } from "./documents.js";
import type { LiveServer } from "./manager.js";

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

/** What of a query names its position. */
export interface PositionRequest {
  readonly operation: string;
  readonly path: string;
  readonly line?: number;
  readonly column?: number;
  readonly symbol?: string;
}

/** The position a request names (0-based), or an error for the model. Never rejects. */
export async function positionOf(
  server: LiveServer,
  request: PositionRequest,
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
