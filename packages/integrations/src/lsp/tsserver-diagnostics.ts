import type { Diagnostic } from "vscode-languageserver-protocol/node";
import type { LspClient } from "./client.js";

interface TsDiagnostic {
  readonly start: { readonly line: number; readonly offset: number };
  readonly end: { readonly line: number; readonly offset: number };
  readonly text: string;
  readonly code?: number;
  readonly category?: string;
}

const SEVERITY: Readonly<Record<string, 1 | 2 | 3 | 4>> = {
  error: 1,
  warning: 2,
  message: 3,
  suggestion: 4,
};

function toLsp(d: TsDiagnostic): Diagnostic {
  return {
    range: {
      start: { line: d.start.line - 1, character: d.start.offset - 1 },
      end: { line: d.end.line - 1, character: d.end.offset - 1 },
    },
    severity: SEVERITY[d.category ?? "error"] ?? 1,
    message: d.text,
    source: "typescript",
    ...(d.code !== undefined ? { code: d.code } : {}),
  };
}

async function tsRequest(
  client: LspClient,
  command: string,
  file: string,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<Diagnostic[]> {
  const reply = await client.request<{ body?: TsDiagnostic[] } | null>(
    "workspace/executeCommand",
    { command: "typescript.tsserverRequest", arguments: [command, { file }] },
    signal,
    timeoutMs,
  );
  if (!reply || !Array.isArray(reply.body)) throw new Error(`tsserver ${command}: no diagnostics`);
  return reply.body.map(toLsp);
}

/**
 * A file's syntactic and semantic diagnostics asked of tsserver directly, or `null` when the
 * server does not answer in `timeoutMs` (or refuses). Never rejects.
 */
export async function tsserverDiagnostics(
  client: LspClient,
  path: string,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<Diagnostic[] | null> {
  try {
    const [syntactic, semantic] = await Promise.all([
      tsRequest(client, "syntacticDiagnosticsSync", path, signal, timeoutMs),
      tsRequest(client, "semanticDiagnosticsSync", path, signal, timeoutMs),
    ]);
    return [...syntactic, ...semantic];
  } catch {
    return null;
  }
}
